package io.corpora.cli.plugin;

import static io.corpora.testkit.TestFiles.copyTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.plugin.loader.PluginKind;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.SpiVersion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Generates a plugin of every kind with {@code corpora plugin new}, builds the generated projects with Maven exactly
 * as an author would ({@code mvn package}: compile, run the contract suite, package), and loads the jars through the
 * real plugin loader. The projects depend on this build's platform-api and platform-testkit, installed first into the
 * build's own local repository (what {@code mvn install} of Corpora does for an author).
 */
class PluginTemplateIT {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Path WORK = Path.of("target/plugin-template-it").toAbsolutePath();
    private static final String VERSION = System.getProperty("corpora.version", "0.1.0-SNAPSHOT");

    @BeforeAll
    static void generateAndBuild() throws Exception {
        deleteRecursively(WORK);
        Files.createDirectories(WORK);
        List<String> modules = new ArrayList<>();
        for (PluginKind kind : PluginKind.values()) {
            String name = "acme-" + kind.label();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = new PluginCommand().run(List.of("new", kind.label(), name, "--dir", WORK.toString(), "--group", "com.acme"),
                    new PrintStream(out, true, StandardCharsets.UTF_8), System.err);
            assertEquals(0, code, out.toString(StandardCharsets.UTF_8));
            modules.add(name);
        }
        // One aggregator, so Maven starts once for all kinds (the generated projects stay standalone).
        Files.writeString(WORK.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>
                  <groupId>com.acme</groupId><artifactId>all-kinds</artifactId><version>1</version><packaging>pom</packaging>
                  <modules>%s</modules>
                </project>""".formatted(modules.stream().map(m -> "<module>" + m + "</module>").collect(Collectors.joining())));
        installIntoLocalRepository("pom.xml", "pom.xml", "pom");
        for (String module : List.of("platform-api", "platform-plugin-loader", "platform-testkit")) {
            installIntoLocalRepository(module + "/target/" + module + "-" + VERSION + ".jar", module + "/pom.xml", "jar");
        }
        maven(WORK, "package");
    }

    @Test
    void everyKindBuildsAndPassesItsContractSuite() throws IOException {
        for (PluginKind kind : PluginKind.values()) {
            Path project = WORK.resolve("acme-" + kind.label());
            Path reports = project.resolve("target/surefire-reports");
            assertTrue(Files.isDirectory(reports), kind + ": no test reports, the contract suite did not run");
            try (Stream<Path> files = Files.list(reports)) {
                List<Path> xml = files.filter(p -> p.getFileName().toString().endsWith(".xml")).toList();
                assertTrue(!xml.isEmpty(), kind + ": no test report");
                for (Path report : xml) {
                    String text = Files.readString(report);
                    assertTrue(text.contains("failures=\"0\"") && text.contains("errors=\"0\""), kind + ": " + report);
                    assertTrue(!text.contains("tests=\"0\""), kind + ": the suite ran no test");
                }
            }
        }
    }

    @Test
    void jarsCarryTheSpiVersionAndLoadThroughThePluginLoader() throws IOException {
        Path plugins = WORK.resolve("plugins");
        Files.createDirectories(plugins);
        for (PluginKind kind : PluginKind.values()) {
            String name = "acme-" + kind.label();
            Path jar = WORK.resolve(name).resolve("target/" + name + "-0.1.0-SNAPSHOT.jar");
            try (JarFile file = new JarFile(jar.toFile())) {
                assertEquals(SpiVersion.CURRENT, file.getManifest().getMainAttributes().getValue(SpiVersion.MANIFEST_ATTRIBUTE));
            }
            // The folder layout (jar plus libraries) for one half, the bare jar for the other: both are documented.
            if (kind.ordinal() % 2 == 0) {
                Files.copy(jar, plugins.resolve(jar.getFileName()));
            } else {
                copyTree(WORK.resolve(name).resolve("target/plugin/" + name), plugins.resolve(name));
            }
        }
        PluginRegistry registry = PluginManager.load(plugins);
        assertEquals(List.of(), registry.problems());
        for (PluginKind kind : PluginKind.values()) {
            assertEquals(List.of("acme-" + kind.label()), registry.names(kind), kind.label());
            assertTrue(registry.describe(kind, "acme-" + kind.label()).orElseThrow().options().size() > 0, kind + " declares its options");
        }
    }

    private static void installIntoLocalRepository(String file, String pom, String packaging) throws Exception {
        maven(ROOT, "install:install-file", "-Dfile=" + ROOT.resolve(file), "-DpomFile=" + ROOT.resolve(pom), "-Dpackaging=" + packaging);
    }

    /** Runs Maven offline on the build's own local repository (no download: everything the generated pom needs is there). */
    private static void maven(Path directory, String... goals) throws Exception {
        List<String> command = new ArrayList<>(List.of(mavenExecutable(), "-B", "-o", "-q", "--fail-at-end"));
        String repository = System.getProperty("corpora.maven.repo");
        if (repository != null && !repository.isBlank()) {
            command.add("-Dmaven.repo.local=" + repository);
        }
        command.addAll(List.of(goals));
        Path log = Files.createTempFile(WORK, "maven", ".log");
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("Maven did not finish in 10 minutes: " + command);
        }
        assertEquals(0, process.exitValue(), String.join(" ", command) + "\n" + Files.readString(log));
    }

    private static String mavenExecutable() {
        String home = System.getProperty("maven.home");
        if (home != null && Files.isExecutable(Path.of(home, "bin", "mvn"))) {
            return Path.of(home, "bin", "mvn").toString();
        }
        return "mvn";
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) {
                Files.delete(p);
            }
        }
    }
}
