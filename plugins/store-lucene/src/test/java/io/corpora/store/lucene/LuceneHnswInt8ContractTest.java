package io.corpora.store.lucene;

import java.util.Map;

/**
 * The contract again with the exact-search fallback off and an int8-quantised graph, so every vector search
 * goes through Lucene's (filtered) HNSW and the rescoring from stored vectors.
 */
class LuceneHnswInt8ContractTest extends LuceneVectorStoreContractTest {

    @Override
    protected Map<String, String> options() {
        return Map.of("exactSearchThreshold", "0", "quantization", "int8");
    }
}
