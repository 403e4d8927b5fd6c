package io.corpora.store.pgvector;

import java.util.Map;

/** The store contract again with {@code exactSearchMaxRows=0}: every vector search goes through HNSW. */
class PgVectorStoreHnswContractIT extends PgVectorStoreContractIT {

    @Override
    protected Map<String, String> searchOptions() {
        return Map.of(PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "0");
    }
}
