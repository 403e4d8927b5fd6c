package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.engine.embed.DiskEmbeddingCache;
import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.spi.Namespace;
import io.corpora.spi.embed.Embedder;
import io.corpora.testkit.TestEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The HTTP part's pieces that run without a server: the cache it fills, its options, what it reads from answers. */
class HttpBenchTest {

    private static final Path PLUGINS = Path.of(System.getProperty("corpora.plugins.dir", "target/plugins"));

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(ints = {HttpTenants.DEFAULT_CHUNKS_PER_DOCUMENT, 4, 1})
    void aServersTenantEmbedderReadsThePrefilledVectorsOfTheRecordsItIngests(int chunksPerDocument) throws Exception {
        int chunks = chunksPerDocument + 7; // full documents, the last short
        List<String> passages = List.of("First passage\nabout vitamin D and fractures, with a title line.", "Second passage on hybrid retrieval.",
                "A third passage that is much longer than the others: " + "words ".repeat(200));
        List<float[]> vectors = new ArrayList<>();
        for (int j = 0; j < chunks; j++) {
            vectors.add(new float[] {j, 1, -j, 0.5f});
        }
        Fleet.Tenant inProcess = new Fleet.Tenant("median", 7, Namespace.of("t7"), IntStream.range(0, chunks).mapToObj(j -> "t7 " + j).toList(),
                List.of(), vectors);
        BenchCorpus corpus = new BenchCorpus(passages, List.of(), List.of(), List.of());
        HttpTenants tenants = new HttpTenants(corpus, List.of(inProcess), chunksPerDocument);
        TestEmbedder model = TestEmbedder.table("bench", 4).build();
        Path cache = dir.resolve("cache");

        assertEquals(chunks, tenants.prefill(cache, model, PluginManager.load(PLUGINS), dir.resolve("work")));
        assertEquals((chunks + chunksPerDocument - 1) / chunksPerDocument, tenants.documents(tenants.tenants().get(0)));

        // What a JSON Lines record of one string becomes on the server: one chunk whose index text is the record's text.
        List<String> indexTexts = IntStream.range(0, chunks).mapToObj(j -> tenants.text(inProcess, j)).toList();
        int longOne = IntStream.range(0, chunks).filter(j -> corpus.passageOf(7, j) == 2).findFirst().orElseThrow();
        assertEquals(passages.get(2).substring(0, HttpTenants.TEXT_CHARS) + " [c7x" + longOne + "]", indexTexts.get(longOne),
                "a long passage is cut, then marked");
        try (DocumentEmbeddingCache server = DocumentEmbeddingCache.at(cache, DiskEmbeddingCache.DEFAULT_MAX_BYTES)) {
            Embedder tenantEmbedder = server.wrap("bench-median", Map.of(), model);
            List<float[]> read = tenantEmbedder.embedDocuments(indexTexts);
            assertEquals(chunks, server.hits());
            assertEquals(0, server.misses());
            for (int j = 0; j < chunks; j++) {
                assertArrayEquals(vectors.get(j), read.get(j), "chunk " + j);
                assertEquals(j, HttpTenants.chunkOf(indexTexts.get(j)));
            }
        }
    }

    @Test
    void httpIsOnButInTheQuickProfileUnlessAsked() throws Exception {
        Path key = Files.writeString(dir.resolve("private.pem"), "not read here");
        assertNull(settings(Profile.QUICK, key));
        assertNotNull(settings(Profile.MEDIUM, key));
        assertNotNull(settings(Profile.FULL, key));
        assertNotNull(settings(Profile.QUICK, key, "--http"));
        assertNull(settings(Profile.FULL, key, "--no-http"));
        assertEquals("3g", settings(Profile.FULL, key, "--http-heap", "3g").heap());
        assertThrows(UsageException.class, () -> settings(Profile.FULL, key, "--http", "--no-http"));
        assertThrows(UsageException.class, () -> settings(Profile.FULL, key, "--http-heap", "lots"));
        assertEquals(HttpTenants.DEFAULT_CHUNKS_PER_DOCUMENT, settings(Profile.FULL, key).chunksPerDocument());
        assertEquals(4, settings(Profile.FULL, key, "--http-chunks-per-document", "4").chunksPerDocument());
        assertThrows(UsageException.class, () -> settings(Profile.FULL, key, "--http-chunks-per-document", "0"));
        assertThrows(UsageException.class, () -> settings(Profile.FULL, key, "--http-chunks-per-document", "101"));
        assertThrows(UsageException.class, () -> settings(Profile.FULL, dir.resolve("missing.pem")), "no key, no tokens");
        Options pgvectorOnly = Options.parse(List.of("--http"), Set.of(), Set.of("http", "no-http", "http-keep"));
        assertThrows(UsageException.class, () -> BenchCommand.httpSettings(pgvectorOnly, Profile.FULL, false, key));
    }

    @Test
    void onlyHttpIsRefusedWhereNoServerWouldBeMeasured() {
        BenchCommand bench = new BenchCommand();
        for (List<String> args : List.of(List.of("--quick", "--only", "http"), List.of("--profile", "full", "--no-http", "--only", "http"),
                List.of("--profile", "full", "--store", "all", "--only", "http"))) {
            UsageException refused = assertThrows(UsageException.class, () -> bench.run(args, System.out, System.err), String.join(" ", args));
            assertTrue(refused.getMessage().contains("--only http"), refused.getMessage());
        }
        assertThrows(UsageException.class, () -> bench.run(List.of("--only", "retrieve"), System.out, System.err));
        UsageException alone = assertThrows(UsageException.class, () -> bench.run(List.of("--profile", "full", "--http-reuse", dir.toString()),
                System.out, System.err));
        assertTrue(alone.getMessage().contains("--only http"), alone.getMessage());
    }

    @Test
    void aReusedServerFolderMustHoldTheDataOfAKeptRun() throws Exception {
        Path key = Files.writeString(dir.resolve("private.pem"), "not read here");
        Path kept = Files.createDirectories(dir.resolve("kept-server"));
        UsageException refused = assertThrows(UsageException.class, () -> settings(Profile.FULL, key, "--http-reuse", kept.toString()));
        assertTrue(refused.getMessage().contains("--http-keep"), refused.getMessage());
        Files.createDirectories(kept.resolve("data"));
        assertEquals(kept, settings(Profile.FULL, key, "--http-reuse", kept.toString()).reuse());
        assertNull(settings(Profile.FULL, key).reuse(), "no reuse unless asked");
    }

    private static HttpBench.Settings settings(Profile profile, Path key, String... args) {
        Options options = Options.parse(List.of(args), Set.of("http-liberty", "http-war", "http-port", "http-heap", "http-chunks-per-document",
                "http-reuse"),
                Set.of("http", "no-http", "http-keep"));
        return BenchCommand.httpSettings(options, profile, true, key);
    }

    @Test
    void theServersOwnTimeAndCountersAreReadFromItsAnswers() {
        String answer = "{\"passages\":[{\"text\":\"x [c3x41]\"}],\"diagnostics\":{\"legs\":[{\"name\":\"vector\",\"candidates\":10,"
                + "\"millis\":0.9}],\"totalMillis\":1.25,\"embedder\":\"e\"}}";
        assertEquals(1.25, HttpRetrieval.totalMillis(answer));
        assertEquals(Double.NaN, HttpRetrieval.totalMillis("{\"passages\":[]}"));
        assertEquals(41, HttpTenants.chunkOf("some text [c3x41]"));
        assertEquals(-1, HttpTenants.chunkOf("no marker"));
        String metrics = """
                # HELP corpora_ingest_embeddingCache_hits Chunk texts whose vector came from the cache at ingest
                # TYPE corpora_ingest_embeddingCache_hits gauge
                corpora_ingest_embeddingCache_hits{mp_scope="application",} 5075.0
                corpora_ingest_embeddingCache_hitsExtra{mp_scope="application",} 1.0
                corpora_retrieve_queryCache_misses{mp_scope="application",} 12.0
                """;
        assertEquals(5075, ServerMetrics.gauge(metrics, "corpora_ingest_embeddingCache_hits"));
        assertEquals(12, ServerMetrics.gauge(metrics, "corpora_retrieve_queryCache_misses"));
        assertEquals(0, ServerMetrics.gauge(metrics, "corpora_ingest_embeddingCache_misses"), "a gauge the server does not register");
    }
}
