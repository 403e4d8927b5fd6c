package io.corpora.testkit;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.VectorStore;

/** The contract suite passes on its own reference store, so a failure elsewhere is the store's, not the suite's. */
class ReferenceVectorStoreContractTest extends VectorStoreContract {

    @Override
    protected VectorStore newStore(VectorSimilarity metric, int dimension) {
        return new ReferenceVectorStore(metric, dimension);
    }
}
