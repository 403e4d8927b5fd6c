package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.engine.embed.DiskEmbeddingCache;
import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.spi.embed.Embedder;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's document-embedding cache in front of a tenant's real ONNX embedder: after a restart the same chunk
 * text is answered from disk with the model's vector bit for bit; another tenant, other embedder settings and queries
 * go to the model.
 */
class TenantDocumentCacheTest {

    private static final List<String> CHUNKS = List.of("Vitamin D supplementation and fracture risk in older adults.",
            "Hybrid retrieval fuses a keyword and a vector ranking.");

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    @TempDir
    Path data;

    @TempDir
    Path cacheDir;

    @Test
    void aRestartedServerReadsTheModelsDocumentVectorsFromDisk() {
        List<float[]> fromModel;
        try (DocumentEmbeddingCache cache = DocumentEmbeddingCache.at(cacheDir, DiskEmbeddingCache.MIN_MAX_BYTES)) {
            fromModel = real.open(data.resolve("first"), cache).runtime(tenant("acme", Map.of())).embedder().embedDocuments(CHUNKS);
            assertEquals(2, cache.misses());
        }
        try (DocumentEmbeddingCache cache = DocumentEmbeddingCache.at(cacheDir, DiskEmbeddingCache.MIN_MAX_BYTES)) {
            TenantRuntimes runtimes = real.open(data.resolve("second"), cache);
            List<float[]> again = runtimes.runtime(tenant("acme", Map.of())).embedder().embedDocuments(CHUNKS);
            assertEquals(2, cache.hits());
            assertEquals(0, cache.misses());
            for (int i = 0; i < CHUNKS.size(); i++) {
                assertArrayEquals(bits(fromModel.get(i)), bits(again.get(i)), "chunk " + i + " bit for bit");
            }

            runtimes.runtime(tenant("globex", Map.of())).embedder().embedDocuments(CHUNKS.subList(0, 1));
            assertEquals(1, cache.misses(), "another tenant's identical text is embedded by the model");

            runtimes.runtime(tenant("acme", Map.of("truncation", "warn"))).embedder().embedDocuments(CHUNKS.subList(0, 1));
            assertEquals(2, cache.misses(), "other embedder settings are another key space");

            Embedder acme = runtimes.runtime(tenant("acme", Map.of("queryInstruction", "none"))).embedder();
            acme.embedDocuments(CHUNKS.subList(1, 2));
            assertEquals(3, cache.hits(), "the query instruction does not make document vectors: shared");
            acme.embedQuery(CHUNKS.get(0));
            acme.embedQuery(CHUNKS.get(0));
            assertEquals(3, cache.hits(), "queries neither read");
            assertEquals(2, cache.misses(), "nor fill the document cache");
            assertEquals(4, cache.entries(), "acme's two, globex's one, acme's under other settings one");
        }
    }

    private static TenantDefinition tenant(String id, Map<String, String> embedderConfig) {
        return new TenantDefinition(id, null, null, new PluginChoice("lucene", Map.of()), new PluginChoice("onnx", embedderConfig),
                null, null, null, null, null);
    }

    private static int[] bits(float[] vector) {
        int[] bits = new int[vector.length];
        for (int i = 0; i < vector.length; i++) {
            bits[i] = Float.floatToRawIntBits(vector[i]);
        }
        return bits;
    }
}
