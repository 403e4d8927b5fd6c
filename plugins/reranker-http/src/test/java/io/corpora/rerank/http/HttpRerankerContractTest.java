package io.corpora.rerank.http;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;

/**
 * The HTTP reranker against the local wire-format stand-in of the Cohere API (sorted results mapped back by index,
 * batches of 2 so a call spans several requests). The suite checks the client's side of the contract; the scores are
 * the stand-in's.
 */
class HttpRerankerContractTest extends RerankerContract {

    private FakeRerankService service;

    @Override
    protected Reranker newReranker() throws Exception {
        if (service == null) {
            service = new FakeRerankService();
        }
        return Providers.create(RerankerProvider.class, "http", Map.of("format", "cohere", "model", "rerank-test",
                "endpoint", service.uri("/v2/rerank").toString(), "apiKey", "contract-key", "batchSize", "2"), Path.of("target"));
    }

    @AfterAll
    void stopService() {
        if (service != null) {
            service.close();
        }
    }
}
