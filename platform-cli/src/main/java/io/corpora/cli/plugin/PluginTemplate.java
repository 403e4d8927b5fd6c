package io.corpora.cli.plugin;

import io.corpora.plugin.loader.PluginKind;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders the plugin project of one kind: every file's relative path and its text. Templates are plain files with
 * {@code {{placeholder}}} markers (not {@code ${…}}, which the generated pom uses for Maven's own properties).
 */
public final class PluginTemplate {

    private static final String ROOT = "/io/corpora/cli/plugin/template/";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([A-Za-z]+)}}");
    /** The provider name rule of the plugin loader: lower case, digits and hyphens. */
    private static final Pattern PLUGIN_NAME = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");
    private static final Pattern JAVA_PACKAGE = Pattern.compile("[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*");
    private static final Pattern GROUP_ID = Pattern.compile("[A-Za-z0-9_.-]+");

    private final PluginKind kind;
    private final Map<String, String> values = new LinkedHashMap<>();

    /**
     * @param name     the provider name tenants configure (e.g. {@code acme-embedder}); also the artifact id
     * @param javaPackage the package of the generated classes
     * @param groupId  the Maven group id of the generated project
     */
    public PluginTemplate(PluginKind kind, String name, String javaPackage, String groupId) {
        this.kind = Objects.requireNonNull(kind, "kind");
        if (name == null || name.length() > 40 || !PLUGIN_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("plugin name must be 1..40 characters of a-z, 0-9 and single hyphens, "
                    + "starting with a letter (e.g. acme-embedder), got '" + name + "'");
        }
        if (javaPackage == null || !JAVA_PACKAGE.matcher(javaPackage).matches()) {
            throw new IllegalArgumentException("package must be a lower-case Java package name (e.g. com.acme.embedder), got '" + javaPackage + "'");
        }
        if (groupId == null || !GROUP_ID.matcher(groupId).matches()) {
            throw new IllegalArgumentException("group id must be letters, digits, '.', '_' or '-', got '" + groupId + "'");
        }
        Properties versions = versions();
        values.put("name", name);
        values.put("Class", className(name));
        values.put("extension", name.replace("-", ""));
        values.put("package", javaPackage);
        values.put("groupId", groupId);
        values.put("kind", kind.label());
        values.put("stem", stem(kind));
        values.put("providerInterface", kind.providerType().getName());
        values.put("corporaVersion", versions.getProperty("corpora.version"));
        values.put("spiVersion", versions.getProperty("corpora.spi.version"));
        values.put("junitVersion", versions.getProperty("junit.version"));
    }

    /** The default package for a plugin name: {@code com.example.} plus the name without hyphens. */
    public static String defaultPackage(String name) {
        return "com.example." + name.replace("-", "");
    }

    /** The suffix of the generated classes: the kind's service interface, e.g. {@code AcmeEmbedder}, {@code AcmeEmbedderProvider}. */
    static String stem(PluginKind kind) {
        return kind.serviceType().getSimpleName();
    }

    /** {@code acme-embedder} becomes {@code AcmeEmbedder}. */
    static String className(String name) {
        StringBuilder b = new StringBuilder();
        for (String part : name.split("-")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.toString();
    }

    /** Every file of the project, by path relative to the project folder, in a stable order. */
    public Map<String, String> files() {
        String javaDir = values.get("package").replace('.', '/');
        String prefix = values.get("Class") + stem(kind);
        Map<String, String> files = new LinkedHashMap<>();
        files.put("pom.xml", render("common/pom.xml"));
        files.put("README.md", render("common/README.md"));
        files.put(".gitignore", render("common/gitignore"));
        files.put("src/main/resources/META-INF/services/" + kind.providerType().getName(), values.get("package") + "." + prefix + "Provider\n");
        files.put("src/main/java/" + javaDir + "/package-info.java", render("common/package-info.java"));
        files.put("src/main/java/" + javaDir + "/" + prefix + "Provider.java", render(kind.label() + "/Provider.java"));
        files.put("src/main/java/" + javaDir + "/" + prefix + ".java", render(kind.label() + "/Implementation.java"));
        files.put("src/test/java/" + javaDir + "/" + prefix + "ContractTest.java", render(kind.label() + "/ContractTest.java"));
        return files;
    }

    private String render(String template) {
        String text = resource(template);
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("template " + template + " uses unknown placeholder {{" + m.group(1) + "}}");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        return m.appendTail(out).toString();
    }

    private static String resource(String template) {
        try (InputStream in = PluginTemplate.class.getResourceAsStream(ROOT + template)) {
            if (in == null) {
                throw new IllegalStateException("template " + template + " is missing from the command line's resources");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Properties versions() {
        Properties p = new Properties();
        try (InputStream in = PluginTemplate.class.getResourceAsStream(ROOT + "versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("versions.properties is missing from the command line's resources");
            }
            p.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return p;
    }
}
