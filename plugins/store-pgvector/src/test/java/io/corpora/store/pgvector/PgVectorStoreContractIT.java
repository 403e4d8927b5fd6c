package io.corpora.store.pgvector;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.VectorStoreContract;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/**
 * The shared store contract, on a real PostgreSQL + pgvector: one table per metric, tenants isolate the tests.
 * The contract's namespaces are small, so this class runs them through the exact path; the nested subclass
 * runs the same suite with the exact path disabled, through the HNSW index and iterative scans.
 */
class PgVectorStoreContractIT extends VectorStoreContract {

    @BeforeAll
    static void freshTables() throws Exception {
        if (!TestDatabase.configured()) {
            return; // each test is then skipped by requireDatabase, with the reason
        }
        for (VectorSimilarity metric : VectorSimilarity.values()) {
            TestDatabase.dropTable(table(metric));
        }
    }

    @BeforeEach
    void requireDatabase() {
        TestDatabase.url();
    }

    static String table(VectorSimilarity metric) {
        return "it_contract_" + metric.name().toLowerCase(Locale.ROOT);
    }

    /** Extra options of this run. */
    protected Map<String, String> searchOptions() {
        return Map.of();
    }

    @Override
    protected VectorStore newStore(VectorSimilarity metric, int dimension) {
        String name = switch (metric) {
            case COSINE -> "cosine";
            case L2 -> "l2";
            case INNER_PRODUCT -> "inner";
        };
        Map<String, String> options = new java.util.HashMap<>(Map.of(
                PgVectorOptions.METRIC, name,
                PgVectorOptions.DIMENSION, Integer.toString(dimension),
                PgVectorOptions.NULLABLE_EMBEDDINGS, "true"));
        options.putAll(searchOptions());
        return TestDatabase.open(table(metric), options);
    }
}
