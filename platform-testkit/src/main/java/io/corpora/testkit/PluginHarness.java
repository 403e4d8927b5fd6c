package io.corpora.testkit;

import io.corpora.plugin.loader.PluginKind;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.PluginProvider;
import io.corpora.spi.SpiVersion;
import io.corpora.spi.config.PluginContext;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Loads a plugin in a test the way the server does: its jars in a plugins directory, read by {@link PluginManager}
 * into a {@code PluginClassLoader} of their own that shares only the SPI (and the JDK) with the test. The created
 * instances implement the test's own SPI interfaces, so a test calls them directly — while the plugin's classes and
 * libraries are isolated copies, as in production. A plugin's build directory ({@code target/classes}) is jarred with
 * the {@value SpiVersion#MANIFEST_ATTRIBUTE} the build would write; libraries are named by a class they contain.
 *
 * <pre>{@code
 * try (PluginHarness lucene = PluginHarness.plugin("store-lucene").classes(Path.of("target/classes"))
 *         .withJarOf(org.apache.lucene.index.IndexWriter.class).load()) {
 *     VectorStore store = lucene.create(VectorStoreProvider.class, "lucene", Map.of());
 * }
 * }</pre>
 */
public final class PluginHarness implements AutoCloseable {

    private final Path root;
    private final PluginRegistry registry;

    private PluginHarness(Path root, PluginRegistry registry) {
        this.root = root;
        this.registry = registry;
    }

    /** Starts describing the plugin {@code name} (its directory name under the plugins directory). */
    public static Builder plugin(String name) {
        return new Builder(name);
    }

    /** How the plugin under test is assembled. */
    public static final class Builder {
        private final String name;
        private final List<Path> locations = new ArrayList<>();
        private String spiVersion = SpiVersion.CURRENT;

        private Builder(String name) {
            if (!name.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) {
                throw new IllegalArgumentException("plugin directory name must be a plain file name, got: " + name);
            }
            this.name = name;
        }

        /** The plugin's own classes: a jar, or a classes directory (jarred, with the SPI version in its manifest). */
        public Builder classes(Path jarOrDirectory) {
            locations.add(jarOrDirectory);
            return this;
        }

        /** Bundles the jar (or classes directory) each of {@code types} was loaded from, as the plugin's libraries. */
        public Builder withJarOf(Class<?>... types) {
            for (Class<?> type : types) {
                locations.add(locationOf(type));
            }
            return this;
        }

        /** Bundles the jar holding {@code resource} (e.g. a model file) as seen by the test's class path. */
        public Builder withJarContaining(String resource) {
            java.net.URL url = PluginHarness.class.getClassLoader().getResource(resource);
            if (url == null) {
                throw new IllegalArgumentException("no jar on the test class path holds " + resource);
            }
            try {
                java.net.URL location = "jar".equals(url.getProtocol())
                        ? ((java.net.JarURLConnection) url.openConnection()).getJarFileURL()
                        : url;
                Path path = Path.of(location.toURI());
                locations.add("jar".equals(url.getProtocol()) ? path : classesRootOf(path, resource));
            } catch (IOException | URISyntaxException e) {
                throw new IllegalArgumentException("cannot locate the jar of " + resource + " (" + url + ")", e);
            }
            return this;
        }

        private static Path classesRootOf(Path file, String resource) {
            Path root = file;
            for (int i = 0; i < resource.split("/").length; i++) {
                root = root.getParent();
            }
            return root;
        }

        /** The SPI version a jarred classes directory declares (default {@link SpiVersion#CURRENT}), e.g. "1.0". */
        public Builder spiVersion(String version) {
            this.spiVersion = Objects.requireNonNull(version, "version");
            return this;
        }

        /**
         * Writes the plugins directory and loads it. Fails with every problem the loader reported: a plugin that does
         * not load in the harness would not load in the server.
         */
        public PluginHarness load() {
            if (locations.isEmpty()) {
                throw new IllegalStateException("plugin '" + name + "' has no classes: call classes(...)");
            }
            try {
                Path root = Files.createTempDirectory("corpora-plugin-harness-");
                Path plugin = Files.createDirectories(root.resolve("plugins").resolve(name));
                int index = 0;
                for (Path location : locations) {
                    Path jar = plugin.resolve(String.format("%02d-", index++) + jarName(location));
                    if (Files.isDirectory(location)) {
                        jarDirectory(location, jar, spiVersion);
                    } else {
                        Files.copy(location, jar);
                    }
                }
                Files.createDirectories(root.resolve("data"));
                PluginRegistry registry = PluginManager.load(root.resolve("plugins"));
                if (!registry.problems().isEmpty()) {
                    delete(root);
                    throw new AssertionError("plugin '" + name + "' did not load: " + registry.problems());
                }
                return new PluginHarness(root, registry);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** The registry the plugins directory loaded into. */
    public PluginRegistry registry() {
        return registry;
    }

    /** An instance of provider {@code name}, its configuration validated against the declared options first. */
    public <T> T create(Class<? extends PluginProvider<T>> kind, String name, Map<String, String> options) {
        return registry.create(kind, name, PluginContext.of(root.resolve("data"), "harness"), options);
    }

    /** The class loader the plugin providing {@code name} of {@code kind} runs in. */
    public ClassLoader classLoaderOf(PluginKind kind, String name) {
        return registry.classLoaderOf(kind, name);
    }

    /**
     * Class {@code className} as the plugin providing {@code name} of {@code kind} sees it: its own copy, the shared
     * SPI's or the JDK's. Fails the test when that loader cannot see the class.
     */
    public Class<?> classOf(PluginKind kind, String name, String className) {
        try {
            return classLoaderOf(kind, name).loadClass(className);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(className + " is not visible in the class loader of plugin provider '" + name + "'", e);
        }
    }

    /** A directory for the plugin's data, deleted on close. */
    public Path dataDirectory() {
        return root.resolve("data");
    }

    /** Deletes the plugins and data directories (the class loaders are left to the garbage collector). */
    @Override
    public void close() {
        delete(root);
    }

    private static Path locationOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalArgumentException(type.getName() + " was not loaded from a jar or directory", e);
        }
    }

    private static String jarName(Path location) {
        String file = location.getFileName().toString();
        if (Files.isDirectory(location)) {
            Path parent = location.getParent() == null ? null : location.getParent().getParent();
            return (parent == null ? "classes" : parent.getFileName() + "-" + file) + ".jar";
        }
        return file;
    }

    private static void jarDirectory(Path directory, Path jar, String spiVersion) throws IOException {
        Manifest manifest = new Manifest();
        Path existing = directory.resolve("META-INF/MANIFEST.MF");
        if (Files.isRegularFile(existing)) {
            try (var in = Files.newInputStream(existing)) {
                manifest.read(in);
            }
        }
        Attributes attributes = manifest.getMainAttributes();
        attributes.putIfAbsent(Attributes.Name.MANIFEST_VERSION, "1.0");
        attributes.putValue(SpiVersion.MANIFEST_ATTRIBUTE, spiVersion);
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, manifest);
             Stream<Path> entries = Files.walk(directory)) {
            for (Path path : entries.filter(Files::isRegularFile).sorted().toList()) {
                String entry = directory.relativize(path).toString().replace('\\', '/');
                if (entry.equals("META-INF/MANIFEST.MF")) {
                    continue;
                }
                out.putNextEntry(new JarEntry(entry));
                Files.copy(path, out);
                out.closeEntry();
            }
        }
    }

    private static void delete(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temporary directory left behind is not worth failing a test for
        }
    }
}
