package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.IngestionService;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.testkit.TestEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one ingest may cost, on the real pieces: the JPA control plane (H2), the loaders of the built plugins
 * (loader-text's Markdown loader) and an in-memory store. Time is a clock the test steps, never a sleep.
 */
class IngestionBoundsTest {

    private static final int DIMENSION = 32;

    private static final Path BUILT_PLUGINS = Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins"));
    private static final Namespace ACME = Namespace.of("acme");
    private static final long MILLIS = 1_000_000;

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    @TempDir
    Path data;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry registry;
    private DocumentLoaders loaders;
    private final TestEmbedder embedder = TestEmbedder.hashedWords(DIMENSION).salt("a").build();
    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
    /** Every reading of the deadline clock is a millisecond of work; a slow loader call adds its time. */
    private final AtomicLong now = new AtomicLong();

    @BeforeEach
    void controlPlane() {
        jpa = controlPlanes.h2();
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC()));
        registry = jpa.transactional(DocumentRegistry.class, jpa.documents(Clock.systemUTC()));
        tenants.create(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                new PluginChoice("salted", Map.of("salt", "a")), null, null, null, null, null));
        loaders = new DocumentLoaders(PluginManager.load(BUILT_PLUGINS), data);
    }

    private Tenant tenant() {
        return tenants.find("acme").orElseThrow();
    }

    private TenantRuntime runtime() {
        return new TenantRuntime(tenant().definition(), store, embedder, null, null, ChunkingOptions.defaults());
    }

    /** An ingestion whose documents get {@code budget}; its loader calls take {@code loadMillis} of that clock. */
    private IngestionService ingestion(Duration budget, long loadMillis) {
        IngestLimits limits = new IngestLimits(IngestLimits.DEFAULT.maxDocumentBytes(), IngestLimits.DEFAULT.maxChunksPerDocument(),
                IngestLimits.DEFAULT.embedBatchSize(), budget, IngestLimits.DEFAULT.maxMetadataKeys(), IngestLimits.DEFAULT.maxMetadataBytes());
        IngestionService.LoaderGuard slowLoads = (tenantId, provider, loader) -> (DocumentLoader) request -> {
            now.addAndGet(loadMillis * MILLIS);
            return loader.load(request);
        };
        return new IngestionService(registry, tenants, loaders, limits, IngestionService.IngestListener.NONE, slowLoads,
                () -> now.addAndGet(MILLIS));
    }

    /** Markdown of {@code sections} headed sections of one short paragraph each. */
    private static String markdown(int sections) {
        StringBuilder text = new StringBuilder("# Manual\n\n");
        for (int i = 0; i < sections; i++) {
            text.append("## Part ").append(i).append("\n\nLanterns are trimmed on day ").append(i).append(".\n\n");
        }
        return text.toString();
    }

    private static IngestRequest markdownDocument(String text) {
        return IngestRequest.ofText("manual", text, "text/markdown", "manual.md", Map.of());
    }

    @Test
    void aDocumentNotChunkedWithinTheLoaderDeadlineFailsAloneAndThePreviousVersionServes() {
        IngestJob.Outcome first = ingestion(Duration.ofSeconds(60), 0).ingest(writer(), runtime(), markdownDocument(markdown(3)));
        assertEquals("stored", first.result());

        // 2,000 sections cost more than 500 clock readings to chunk: the chunker itself notices the deadline.
        IngestException slow = assertThrows(IngestException.class,
                () -> ingestion(Duration.ofMillis(500), 0).ingest(writer(), runtime(), markdownDocument(markdown(2_000))));

        assertEquals(422, slow.status());
        assertEquals("processing-timeout", slow.type());
        assertTrue(slow.getMessage().contains("'manual' took longer than 500 ms") && slow.getMessage().contains("corpora.ft.loader.timeout"),
                slow.getMessage());
        DocumentRecord kept = registry.find(ACME, "manual").orElseThrow();
        assertEquals(first.version(), kept.activeVersion(), "the previous version still serves");
        assertEquals(first.chunks(), kept.chunkCount());
        assertEquals(first.chunks(), store.documentChunks(ACME, "manual").size(), "nothing of the slow version was written");
    }

    @Test
    void loadingAndChunkingShareOneDeadline() {
        String text = markdown(60); // about 6 clock readings a section: 360 of 500
        IngestionService quickLoads = ingestion(Duration.ofMillis(500), 0);
        assertEquals("stored", quickLoads.ingest(writer(), runtime(), markdownDocument(text)).result(),
                "alone, chunking this document fits the budget");

        IngestException afterASlowLoad = assertThrows(IngestException.class, () -> ingestion(Duration.ofMillis(500), 450)
                .ingest(writer(), runtime(), IngestRequest.ofText("manual-2", text, "text/markdown", "manual.md", Map.of())));

        assertEquals("processing-timeout", afterASlowLoad.type(), "a load that used most of the budget leaves chunking the rest");
        assertTrue(registry.find(ACME, "manual-2").isEmpty());
    }

    private IngestionService ingestion() {
        return ingestion(Duration.ofSeconds(60), 0);
    }

    private static IngestRequest text(String id, String source, Map<String, Object> metadata) {
        return IngestRequest.ofText(id, "Lanterns are trimmed weekly.", "text/plain", source, metadata);
    }

    @Test
    void nullMetadataValuesAndUnstorableTextAreTheCallersToFix() {
        Map<String, Object> withNull = new java.util.HashMap<>();
        withNull.put("owner", null);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> text("a", null, withNull)).getMessage()
                .contains("metadata 'owner' is null"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> text("a", null, Map.of("tags", java.util.Arrays.asList("x", null))))
                .getMessage().contains("metadata 'tags' is null"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> text("a", null, Map.of("owner", "ada\u0000lovelace")))
                .getMessage().contains("U+0000 at index 3 (NUL)"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> text("a", "notes\u0007.md", Map.of())).getMessage()
                .contains("the source of document 'a' contains the control character U+0007"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> text("a", null, Map.of("bad key", "x"))).getMessage()
                .contains("metadata key must match"));
        assertEquals("stored", ingestion().ingest(writer(), runtime(), text("a", null, Map.of("note", "line one\nline\ttwo")))
                .result(), "tab, line feed and carriage return are text");
    }

    @Test
    void aSourceIsAtMostTheRegistrysColumnLong() {
        String longest = "s".repeat(IngestRequest.MAX_SOURCE_LENGTH);
        assertEquals("stored", ingestion().ingest(writer(), runtime(), text("longest", longest, Map.of())).result());
        assertEquals(longest, registry.find(ACME, "longest").orElseThrow().source(), "the column holds the longest accepted source");
        String emoji = "\uD83D\uDCDA".repeat(IngestRequest.MAX_SOURCE_LENGTH / 2);
        assertEquals("stored", ingestion().ingest(writer(), runtime(), text("emoji", emoji, Map.of())).result(),
                "UTF-16 units count: that is what H2 counts");
        assertThrows(IllegalArgumentException.class, () -> text("x", emoji + "s", Map.of()));
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class, () -> text("x", longest + "s", Map.of()));
        assertTrue(tooLong.getMessage().contains("2049 characters; at most 2048"), tooLong.getMessage());
        String mediaType = "text/" + "x".repeat(IngestRequest.MAX_MEDIA_TYPE_LENGTH); // an upload part's Content-Type, found by extension
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new IngestRequest("a.txt", null, new byte[] {'a'}, mediaType, null,
                "a.txt", Map.of())).getMessage().contains("the media type of document 'a.txt' is 205 characters; at most 200"));
    }

    @Test
    void metadataIsBoundedInKeysAndBytesWhateverBringsIt() {
        IngestionService ingestion = ingestion();
        Map<String, Object> big = Map.of("summary", "x".repeat(8_000), "abstract", "x".repeat(8_000), "notes", "x".repeat(4_000));
        IngestException fromCaller = assertThrows(IngestException.class, () -> ingestion.validate(text("big", null, big)));
        assertEquals(400, fromCaller.status());
        assertEquals("metadata-too-large", fromCaller.type());
        assertTrue(fromCaller.getMessage().contains("20039 bytes as JSON; at most 16384"), fromCaller.getMessage());

        Map<String, Object> many = new java.util.LinkedHashMap<>();
        for (int i = 0; i < 65; i++) {
            many.put("k" + i, i);
        }
        assertEquals("metadata-too-large", assertThrows(IngestException.class, () -> ingestion.validate(text("many", null, many))).type());

        String frontMatter = "---\nsummary: " + "y".repeat(8_000) + "\nabstract: " + "y".repeat(8_000)
                + "\nnotes: " + "y".repeat(1_000) + "\n---\n# Manual\n\nBody.\n";
        IngestException fromContent = assertThrows(IngestException.class, () -> ingestion.ingest(writer(), runtime(),
                markdownDocument(frontMatter)));
        assertEquals("metadata-too-large", fromContent.type());
        assertTrue(fromContent.getMessage().contains("front matter"), fromContent.getMessage());
        assertTrue(registry.find(ACME, "manual").isEmpty());
    }

    @Test
    void metadataCountsAgainstTheByteQuotaOncePerChunk() {
        IngestionService ingestion = ingestion();
        Map<String, Object> metadata = Map.of("summary", "z".repeat(1_000));
        String tenChunks = markdown(10);
        IngestJob.Outcome stored = ingestion.ingest(writer(), runtime(),
                IngestRequest.ofText("charged", tenChunks, "text/markdown", "charged.md", metadata));
        long charged = registry.find(ACME, "charged").orElseThrow().bytes();
        long perChunk = io.corpora.ingest.DocumentMetadata.jsonBytes(store.documentChunks(ACME, "charged").get(0).metadata()
                .entrySet().stream().filter(e -> !e.getKey().startsWith("_"))
                .collect(java.util.stream.Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue)));
        assertTrue(stored.chunks() >= 10, stored.toString());
        assertTrue(perChunk > 1_000, "each chunk carries the metadata: " + perChunk);
        assertTrue(charged >= tenChunks.length() + stored.chunks() * 1_000L, "content plus metadata per chunk: " + charged);

        tenants.update(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                new PluginChoice("salted", Map.of("salt", "a")), null, null,
                new io.corpora.controlplane.Quotas(0, 0, charged + tenChunks.length() + 2_000, 0, 0), null, null));
        IngestException over = assertThrows(IngestException.class, () -> ingestion.ingest(writer(), runtime(),
                IngestRequest.ofText("second", tenChunks, "text/markdown", "second.md", metadata)));
        assertEquals(429, over.status(), "its text alone would fit the quota; its metadata on every chunk does not");
        assertEquals("quota-exceeded", over.type());
    }

    /**
     * A document quota with documents written in parallel (the job runner's window): each check counts the documents
     * still in flight, so eight writers started together store exactly the room left and are refused (429) beyond it.
     */
    @Test
    void parallelDocumentsOfAQuotaTenantNeverOvershootTheQuota() throws Exception {
        // The control plane as the server's beans are: shared by the writers, each call on its thread's own connection.
        IngestionService ingestion = new IngestionService(jpa.perThread(DocumentRegistry.class, em -> new JpaDocumentRegistry(em, Clock.systemUTC())),
                jpa.perThread(TenantRepository.class, em -> new JpaTenantRepository(em, Clock.systemUTC())), loaders, IngestLimits.DEFAULT,
                IngestionService.IngestListener.NONE, IngestionService.LoaderGuard.NONE);
        for (int i = 0; i < 2; i++) {
            ingestion.ingest(writer(), runtime(), IngestRequest.ofText("old-" + i, "Old note " + i + ".", "text/plain", "old.txt", Map.of()));
        }
        tenants.update(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                new PluginChoice("salted", Map.of("salt", "a")), null, null, new io.corpora.controlplane.Quotas(5, 0, 0, 0, 0), null, null));
        AccessDecision writer = writer();
        TenantRuntime runtime = runtime();
        int writers = 8;
        java.util.concurrent.CyclicBarrier start = new java.util.concurrent.CyclicBarrier(writers);
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
        java.util.List<java.util.concurrent.Future<String>> results = new java.util.ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                String id = "new-" + w;
                results.add(pool.submit(() -> {
                    start.await();
                    try {
                        return ingestion.ingest(writer, runtime, IngestRequest.ofText(id, "Fresh note " + id + ".", "text/plain", id + ".txt",
                                Map.of())).result();
                    } catch (IngestException e) {
                        return e.status() + " " + e.type();
                    }
                }));
            }
            java.util.List<String> outcomes = new java.util.ArrayList<>();
            for (java.util.concurrent.Future<String> result : results) {
                outcomes.add(result.get(60, java.util.concurrent.TimeUnit.SECONDS));
            }
            assertEquals(3, outcomes.stream().filter("stored"::equals).count(), outcomes.toString());
            assertEquals(5, outcomes.stream().filter("429 quota-exceeded"::equals).count(), outcomes.toString());
            assertEquals(5, registry.stats("acme").documents(), "the quota of 5 documents holds");
        } finally {
            pool.shutdownNow();
        }
    }

    /** An unrestricted writer of the tenant (no filter hook): the bounds, not access, are under test. */
    private AccessDecision writer() {
        return AccessDecision.decide(new Actor(ACME.tenant(), "writer", null, null, null), tenant(), ACME, null, null);
    }
}
