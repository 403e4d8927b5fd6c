package io.corpora.plugin.loader;

import static io.corpora.testkit.TestFiles.copyTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardKey;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.PluginCallGuard;
import io.corpora.runtime.guard.PluginUnavailableException;
import io.corpora.spi.SpiVersion;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the real plugin bundles — the probes and generator-openai — built by the reactor and unpacked into
 * target/plugins, and variations of them built here: broken jars, foreign SPI versions, duplicate provider names.
 */
class PluginManagerTest {

    private static final Path BUILT_PLUGINS = Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins"));

    @TempDir
    Path dir;

    @BeforeAll
    static void bundlesAreBuilt() {
        assertTrue(Files.isDirectory(BUILT_PLUGINS.resolve("example-probe-legacy")),
                "plugin bundles must be unpacked into " + BUILT_PLUGINS.toAbsolutePath() + " (mvn generate-test-resources does it)");
    }

    @Test
    void pluginsBundlingDifferentVersionsOfOneLibraryBothWork() throws IOException {
        copyPlugin("example-probe-legacy");
        copyPlugin("example-probe-current");

        PluginRegistry registry = PluginManager.load(dir);

        assertEquals(List.of(), registry.problems());
        assertTrue(registry.describe(PluginKind.RERANKER, "probe-legacy").orElseThrow().description().endsWith("commons-lang3 3.12.0"));
        assertTrue(registry.describe(PluginKind.RERANKER, "probe-current").orElseThrow().description().endsWith("commons-lang3 3.18.0"));
        // The current probe uses org.apache.commons.lang3.Strings, which 3.12.0 lacks: it only works with its own copy.
        Reranker current = registry.create(RerankerProvider.class, "probe-current", context(), Map.of());
        Reranker legacy = registry.create(RerankerProvider.class, "probe-legacy", context(), Map.of());
        assertEquals(List.of(2.0, 0.0), box(current.score("Lucene Index", List.of("a lucene index", "unrelated"))));
        assertEquals(List.of(2.0, 0.0), box(legacy.score("Lucene Index", List.of("a lucene index", "unrelated"))));

        ClassLoader legacyLoader = registry.classLoaderOf(PluginKind.RERANKER, "probe-legacy");
        ClassLoader currentLoader = registry.classLoaderOf(PluginKind.RERANKER, "probe-current");
        assertNotSame(legacyLoader, currentLoader);
        assertNotSame(load(legacyLoader, "org.apache.commons.lang3.StringUtils"), load(currentLoader, "org.apache.commons.lang3.StringUtils"));
    }

    /**
     * A plugin that states no failure kind (as every plugin built before SPI 1.3) keeps the classification it always had:
     * its plain exception is its failure — retried and counted — while the SPI's caller errors still pass through.
     */
    @Test
    void aPluginThatStatesNoFailureKindIsGuardedAsBefore() throws IOException {
        copyPlugin("example-probe-legacy");
        Reranker legacy = PluginManager.load(dir).create(RerankerProvider.class, "probe-legacy", context(), Map.of());
        List<Duration> pauses = new CopyOnWriteArrayList<>();
        ExecutorService executor = Executors.newCachedThreadPool();
        try {
            PluginCallGuard guard = new PluginCallGuard(
                    new GuardKey("acme", CallKind.RERANKER, "probe-legacy"),
                    new GuardPolicy(Duration.ofSeconds(30), 2, Duration.ofMillis(1),
                            Duration.ZERO, 20, 0.5, Duration.ofSeconds(5), 1, 4, 4),
                    new GuardContext(executor, System::nanoTime, pauses::add, () -> 0.5, (k, o, outcome, n) -> {}));
            // commons-lang3 splits a null query into null, which the probe streams: a NullPointerException inside the plugin
            PluginUnavailableException e = assertThrows(PluginUnavailableException.class,
                    () -> guard.call("score", () -> legacy.score(null, List.of("a lucene index"))));
            assertEquals(PluginUnavailableException.Reason.FAILED, e.reason());
            assertTrue(e.getCause() instanceof NullPointerException, String.valueOf(e.getCause()));
            assertEquals(2, pauses.size(), "retried, as any plain exception of a plugin always was");
            assertEquals(List.of(2.0), box(guard.call("score", () -> legacy.score("Lucene Index", List.of("a lucene index")))));
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void pluginsShareTheSpiButSeeNothingElseOfTheServer() throws IOException {
        copyPlugin("example-probe-legacy");
        ClassLoader loader = PluginManager.load(dir).classLoaderOf(PluginKind.RERANKER, "probe-legacy");

        assertSame(RerankerProvider.class, load(loader, RerankerProvider.class.getName()));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass(PluginManager.class.getName()));
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.junit.jupiter.api.Test"));
    }

    @Test
    void theGeneratorPluginLoadsWithItsOwnJacksonAndAnswersThroughTheRegistry() throws Exception {
        copyPlugin("generator-openai");
        PluginRegistry registry = PluginManager.load(dir);

        assertEquals(List.of(), registry.problems());
        assertEquals(List.of("openai"), registry.names(PluginKind.GENERATOR));
        assertTrue(registry.describe(PluginKind.GENERATOR, "openai").orElseThrow().options().stream()
                .anyMatch(option -> option.name().equals("apiKey") && option.secret()));
        ClassLoader loader = registry.classLoaderOf(PluginKind.GENERATOR, "openai");
        assertSame(GeneratorProvider.class, load(loader, GeneratorProvider.class.getName()));
        assertSame(loader, load(loader, "com.fasterxml.jackson.databind.ObjectMapper").getClassLoader(),
                "Jackson comes from the plugin's own folder");

        HttpServer standIn = chatCompletionsStandIn();
        try (Generator generator = registry.create(GeneratorProvider.class, "openai", context(),
                Map.of("baseUrl", "http://127.0.0.1:" + standIn.getAddress().getPort() + "/v1", "model", "stand-in"))) {
            GenerationRequest question = GenerationRequest.of(ChatMessage.user("What is the lodging policy?"));
            assertEquals("stand-in", generator.modelId());
            assertEquals("a plain answer", generator.generate(question).text());
            List<String> deltas = new CopyOnWriteArrayList<>();
            Generation streamed = generator.stream(question, deltas::add).result().toCompletableFuture().get(30, TimeUnit.SECONDS);
            assertEquals(List.of("a streamed ", "answer"), deltas);
            assertEquals("a streamed answer", streamed.text());
        } finally {
            standIn.stop(0);
        }
    }

    /** The smallest chat-completions server: a JSON answer, or two SSE deltas when asked to stream. */
    private static HttpServer chatCompletionsStandIn() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            boolean stream = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8).contains("\"stream\":true");
            String body = stream
                    ? "data: {\"choices\":[{\"delta\":{\"content\":\"a streamed \"}}]}\n\n"
                            + "data: {\"choices\":[{\"delta\":{\"content\":\"answer\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
                    : "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"a plain answer\"},\"finish_reason\":\"stop\"}]}";
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", stream ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return server;
    }

    @Test
    void aBrokenJarIsReportedByFileNameAndOthersStillLoad() throws IOException {
        copyPlugin("example-probe-legacy");
        Files.write(dir.resolve("broken.jar"), new byte[] {1, 2, 3, 4});

        PluginRegistry registry = PluginManager.load(dir);

        assertEquals(List.of("probe-legacy"), registry.names(PluginKind.RERANKER));
        assertEquals(1, registry.problems().size());
        assertEquals("broken", registry.problems().get(0).plugin());
        assertTrue(registry.problems().get(0).location().endsWith("broken.jar"));
    }

    @Test
    void aPluginBuiltForAnotherSpiMajorVersionIsRefusedNamingBothVersions() throws IOException {
        Path plugin = copyPlugin("example-probe-current");
        Path jar = plugin.resolve("example-probe-current-" + projectVersion() + ".jar");
        rewriteManifest(jar, "Corpora-SPI-Version", "2.0");

        PluginRegistry registry = PluginManager.load(dir);

        assertEquals(List.of(), registry.names(PluginKind.RERANKER));
        String message = registry.problems().get(0).message();
        assertTrue(message.contains("'example-probe-current'") && message.contains("SPI 2.0") && message.contains("SPI " + SpiVersion.CURRENT), message);
    }

    @Test
    void aPluginWithoutSpiVersionIsRefused() throws IOException {
        Path plugin = copyPlugin("example-probe-legacy");
        rewriteManifest(plugin.resolve("example-probe-legacy-" + projectVersion() + ".jar"), "Corpora-SPI-Version", null);

        PluginRegistry registry = PluginManager.load(dir);

        assertTrue(registry.plugins().isEmpty());
        assertTrue(registry.problems().get(0).message().contains("Corpora-SPI-Version"));
    }

    @Test
    void aDuplicateProviderNameIsReportedAndTheFirstPluginWins() throws IOException {
        copyPlugin("example-probe-legacy");
        copyTree(BUILT_PLUGINS.resolve("example-probe-legacy"), dir.resolve("zz-copy-of-legacy"));

        PluginRegistry registry = PluginManager.load(dir);

        assertEquals(1, registry.plugins().size());
        assertEquals("example-probe-legacy", registry.plugins().get(0).name());
        PluginProblem problem = registry.problems().get(0);
        assertEquals("zz-copy-of-legacy", problem.plugin());
        assertTrue(problem.message().contains("duplicate reranker provider name 'probe-legacy'"), problem.message());
    }

    @Test
    void configurationIsValidatedAgainstTheDeclaredOptionsBeforeCreate() throws IOException {
        copyPlugin("example-probe-current");
        PluginRegistry registry = PluginManager.load(dir);

        InvalidConfigException invalid = assertThrows(InvalidConfigException.class,
                () -> registry.create(RerankerProvider.class, "probe-current", context(), Map.of("delay", "soon", "colour", "red")));
        assertEquals(2, invalid.problems().size(), invalid.problems().toString());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> registry.create(RerankerProvider.class, "nope", context(), Map.of()));
        assertTrue(unknown.getMessage().contains("[probe-current]"), unknown.getMessage());
    }

    @Test
    void aMissingDirectoryLoadsNothingWithoutFailing() {
        PluginRegistry registry = PluginManager.load(dir.resolve("absent"));
        assertTrue(registry.plugins().isEmpty());
        assertTrue(registry.problems().isEmpty());
    }

    private PluginContext context() {
        return PluginContext.of(dir.resolve("data"), "test");
    }

    private Path copyPlugin(String name) throws IOException {
        Path target = dir.resolve(name);
        copyTree(BUILT_PLUGINS.resolve(name), target);
        return target;
    }

    private static String projectVersion() throws IOException {
        try (Stream<Path> files = Files.list(BUILT_PLUGINS.resolve("example-probe-legacy"))) {
            String jar = files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("example-probe-legacy-")).findFirst().orElseThrow();
            return jar.substring("example-probe-legacy-".length(), jar.length() - ".jar".length());
        }
    }

    /** Rewrites one manifest attribute (null removes it), keeping every other entry. */
    private static void rewriteManifest(Path jar, String attribute, String value) throws IOException {
        Path rewritten = jar.resolveSibling(jar.getFileName() + ".tmp");
        try (JarFile in = new JarFile(jar.toFile())) {
            Manifest manifest = new Manifest(in.getManifest());
            if (value == null) {
                manifest.getMainAttributes().remove(new Attributes.Name(attribute));
            } else {
                manifest.getMainAttributes().putValue(attribute, value);
            }
            try (OutputStream file = Files.newOutputStream(rewritten); JarOutputStream out = new JarOutputStream(file, manifest)) {
                for (JarEntry entry : java.util.Collections.list(in.entries())) {
                    if (entry.getName().equals(JarFile.MANIFEST_NAME)) {
                        continue;
                    }
                    out.putNextEntry(new JarEntry(entry.getName()));
                    try (InputStream data = in.getInputStream(entry)) {
                        data.transferTo(out);
                    }
                    out.closeEntry();
                }
            }
        }
        Files.move(rewritten, jar, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    private static Class<?> load(ClassLoader loader, String name) {
        try {
            return loader.loadClass(name);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(name + " not visible", e);
        }
    }

    private static List<Double> box(double[] values) {
        return Arrays.stream(values).boxed().toList();
    }
}
