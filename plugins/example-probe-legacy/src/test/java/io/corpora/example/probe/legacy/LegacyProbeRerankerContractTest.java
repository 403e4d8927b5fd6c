package io.corpora.example.probe.legacy;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Path;
import java.util.Map;

class LegacyProbeRerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() {
        return Providers.create(RerankerProvider.class, "probe-legacy", Map.of(), Path.of("target"));
    }
}
