package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store locations on the real Lucene and pgvector plugins: a store instance's data directory depends on its location
 * options only, so a change of any other option keeps a tenant on its indexes (the running instances hand the open index
 * over); a change of location on a non-empty tenant is refused; a pre-location directory is found again.
 */
class StoreLocationTest {

    private static final Namespace ACME = Namespace.of("acme");

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    @TempDir
    Path data;

    private TenantRuntimes runtimes;

    @Test
    void anUnrelatedStoreOptionChangeKeepsTheTenantOnItsIndexes() {
        runtimes = real.open(data);
        TenantRuntime before = runtimes.runtime(tenant(Map.of()));
        before.store().upsert(ACME, List.of(chunk("policy:0", "Refunds within thirty days.")));

        TenantRuntime after = runtimes.runtime(tenant(Map.of("numCandidatesFactor", "20", "hnsw.m", "32")));

        assertEquals(1, after.store().count(ACME, MetadataFilter.all()), "the same index, under the new search options");
        after.store().upsert(ACME, List.of(chunk("policy:1", "Receipts are required.")));
        assertEquals(2, after.store().count(ACME, MetadataFilter.all()));
        assertEquals(2, before.store().count(ACME, MetadataFilter.all()),
                "a call still in flight on the old runtime is served too: the instances hand the index over");
    }

    @Test
    void aDefinitionWithoutLocationOptionsKeepsTheDirectoryNameDeployedDataUses() {
        // The name the server gave every option-less Lucene store before locations existed: sha256("{}"), 12 digits.
        assertEquals("lucene-44136fa355b3", StoreLocation.of(real.plugins(), new PluginChoice("lucene", Map.of())).directoryName());
        assertEquals("lucene-44136fa355b3",
                StoreLocation.of(real.plugins(), new PluginChoice("lucene", Map.of("quantization", "int8", "bm25.k1", "1.5"))).directoryName());
    }

    @Test
    void aPreLocationPerConfigurationDirectoryIsMovedOnFirstUse() {
        Map<String, String> options = Map.of("quantization", "int8");
        Path legacy = data.resolve("vector-store").resolve(StoreLocation.directoryName("lucene", options));
        try (VectorStore old = real.plugins().create(VectorStoreProvider.class, "lucene", PluginContext.of(legacy, "test"), options)) {
            old.upsert(ACME, List.of(chunk("policy:0", "Refunds within thirty days.")));
        }
        runtimes = real.open(data);

        TenantRuntime runtime = runtimes.runtime(tenant(options));

        assertEquals(1, runtime.store().count(ACME, MetadataFilter.all()));
        assertFalse(Files.exists(legacy.resolve("acme")), "moved, not copied");
    }

    @Test
    void onlyALocationChangeOnANonEmptyTenantIsRefused() {
        StoreLocation lucene = location("lucene", Map.of());
        assertEquals(Optional.empty(), lucene.refusalToMove("acme", location("lucene", Map.of("hnsw.m", "32", "commitInterval", "5s")), 3));
        assertEquals(Optional.empty(), lucene.refusalToMove("acme", location("lucene", Map.of("directory", "/elsewhere")), 0),
                "an empty tenant may move");
        String moved = lucene.refusalToMove("acme", location("lucene", Map.of("directory", "/elsewhere")), 3).orElseThrow();
        assertTrue(moved.contains("[directory]") && moved.contains("3 document(s)") && moved.contains("relocation"), moved);
        assertFalse(moved.contains("/elsewhere"), "values are not echoed (a JDBC URL may carry credentials): " + moved);

        StoreLocation pg = location("pgvector", Map.of("jdbcUrl", "jdbc:postgresql://db/corpora", "table", "chunks_a"));
        assertEquals(Optional.empty(), pg.refusalToMove("acme", location("pgvector", Map.of("jdbcUrl", "jdbc:postgresql://db/corpora",
                "table", "chunks_a", "efSearch", "200", "hnswM", "24")), 3));
        String table = pg.refusalToMove("acme", location("pgvector", Map.of("jdbcUrl", "jdbc:postgresql://db/corpora",
                "table", "chunks_b")), 3).orElseThrow();
        assertTrue(table.contains("[table]"), table);
        String provider = lucene.refusalToMove("acme", pg, 3).orElseThrow();
        assertTrue(provider.contains("provider from lucene to pgvector"), provider);
    }

    private static StoreLocation location(String provider, Map<String, String> options) {
        return StoreLocation.of(real.plugins(), new PluginChoice(provider, options));
    }

    private static TenantDefinition tenant(Map<String, String> storeOptions) {
        return new TenantDefinition("acme", null, null, new PluginChoice("lucene", storeOptions), new PluginChoice("onnx", Map.of()),
                null, null, null, null, null);
    }

    private static EmbeddedChunk chunk(String id, String text) {
        float[] vector = new float[384];
        vector[Math.floorMod(id.hashCode(), 384)] = 1;
        return new EmbeddedChunk(new Chunk(id, "policy", 0, text, List.of(), Map.of()), vector);
    }
}
