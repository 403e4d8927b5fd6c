package io.corpora.store.qdrant;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.VectorStoreContract;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;

/**
 * The shared store contract on a real Qdrant (see {@link QdrantBackend} for where it runs; skipped with the reason when
 * there is none). One collection prefix per metric, since the distance is fixed per collection; tenants isolate the tests.
 * {@link QdrantTieredContractIT} runs the same contract on custom-sharded collections.
 */
class QdrantStoreContractIT extends VectorStoreContract {

    private final String prefix = QdrantBackend.prefixFor(getClass());

    @BeforeEach
    void requireQdrant() {
        QdrantBackend.url(getClass());
    }

    /** Extra options of this run. */
    protected Map<String, String> options() {
        return Map.of();
    }

    @Override
    protected boolean acceptsChunksWithoutEmbeddings() {
        return false;
    }

    @Override
    protected VectorStore newStore(VectorSimilarity metric, int dimension) {
        String name = QdrantMetric.of(metric).optionValue;
        Map<String, String> options = new java.util.HashMap<>(options());
        options.put(QdrantOptions.METRIC, name);
        return QdrantBackend.open(prefix + "_" + name, options);
    }
}
