package io.corpora.example.probe.current;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Path;
import java.util.Map;

class CurrentProbeRerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() {
        return Providers.create(RerankerProvider.class, "probe-current", Map.of(), Path.of("target"));
    }
}
