package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.engine.embed.QueryEmbeddingCache;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's query-embedding cache on the real ONNX embedder: a tenant whose embedder settings change (same model,
 * same fingerprint, another query instruction) gets the new settings' vector for a query it asked before, never the
 * cached vector of the old settings.
 */
class TenantQueryCacheTest {

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    @TempDir
    Path data;

    @Test
    void aChangedQueryInstructionIsNeverAnsweredFromTheOldSettingsCache() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(100);
        TenantRuntimes runtimes = real.open(data, cache);
        String query = "does vitamin d lower the risk of fractures";

        Map<String, String> instructed = Map.of("queryInstruction", "Represent this sentence for searching relevant passages: ");
        float[] withInstruction = runtimes.runtime(tenant(instructed)).embedder().embedQuery(query);
        float[] again = runtimes.runtime(tenant(instructed)).embedder().embedQuery(query);
        assertEquals(1, cache.hits(), "the same settings' repeated query is served by the cache");
        assertArrayEquals(withInstruction, again);

        TenantRuntime changed = runtimes.runtime(tenant(Map.of("queryInstruction", "none")));
        float[] withoutInstruction = changed.embedder().embedQuery(query);
        assertEquals(1, cache.hits(), "the new settings' first query goes to the model");
        assertFalse(Arrays.equals(withInstruction, withoutInstruction), "without the instruction the model makes another vector");
        assertArrayEquals(withoutInstruction, changed.embedder().embedQuery(query));
        assertEquals(2, cache.hits());
    }

    private static TenantDefinition tenant(Map<String, String> embedderConfig) {
        return new TenantDefinition("acme", null, null, new PluginChoice("lucene", Map.of()), new PluginChoice("onnx", embedderConfig),
                null, null, null, null, null);
    }
}
