package io.corpora.server.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.control.DocumentRecord;
import io.corpora.control.DocumentRegistry;
import io.corpora.control.IngestJob;
import io.corpora.control.PluginChoice;
import io.corpora.control.Tenant;
import io.corpora.control.TenantDefinition;
import io.corpora.control.TenantRepository;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.IngestionService;
import io.corpora.plugins.PluginManager;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.testkit.ReferenceVectorStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What one ingest may cost, on the real pieces: the JPA control plane (H2), the loaders of the built plugins
 * (loader-text's Markdown loader) and an in-memory store. Time is a clock the test steps, never a sleep.
 */
class IngestionBoundsTest {

    private static final Path BUILT_PLUGINS = Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins"));
    private static final Namespace ACME = Namespace.of("acme");
    private static final long MILLIS = 1_000_000;

    @TempDir
    Path data;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry registry;
    private DocumentLoaders loaders;
    private final SaltedWordsEmbedder embedder = new SaltedWordsEmbedder("a");
    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, SaltedWordsEmbedder.DIMENSION);
    /** Every reading of the deadline clock is a millisecond of work; a slow loader call adds its time. */
    private final AtomicLong now = new AtomicLong();

    @BeforeEach
    void controlPlane() {
        jpa = ControlPlaneJpa.h2(data);
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC()));
        registry = jpa.transactional(DocumentRegistry.class, jpa.documents(Clock.systemUTC()));
        tenants.create(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                new PluginChoice("salted", Map.of("salt", "a")), null, null, null, null, null));
        loaders = new DocumentLoaders(PluginManager.load(BUILT_PLUGINS), data);
    }

    @AfterEach
    void close() {
        jpa.close();
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
                IngestLimits.DEFAULT.embedBatchSize(), budget);
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
        IngestJob.Outcome first = ingestion(Duration.ofSeconds(60), 0).ingest(tenant(), runtime(), ACME, markdownDocument(markdown(3)));
        assertEquals("stored", first.result());

        // 2,000 sections cost more than 500 clock readings to chunk: the chunker itself notices the deadline.
        IngestException slow = assertThrows(IngestException.class,
                () -> ingestion(Duration.ofMillis(500), 0).ingest(tenant(), runtime(), ACME, markdownDocument(markdown(2_000))));

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
        assertEquals("stored", quickLoads.ingest(tenant(), runtime(), ACME, markdownDocument(text)).result(),
                "alone, chunking this document fits the budget");

        IngestException afterASlowLoad = assertThrows(IngestException.class, () -> ingestion(Duration.ofMillis(500), 450)
                .ingest(tenant(), runtime(), ACME, IngestRequest.ofText("manual-2", text, "text/markdown", "manual.md", Map.of())));

        assertEquals("processing-timeout", afterASlowLoad.type(), "a load that used most of the budget leaves chunking the rest");
        assertTrue(registry.find(ACME, "manual-2").isEmpty());
    }
}
