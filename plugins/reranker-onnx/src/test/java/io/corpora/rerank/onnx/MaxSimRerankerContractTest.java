package io.corpora.rerank.onnx;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Path;
import java.util.Map;

/** MaxSim as configured by default: fused with the candidates' input order, so scores depend on it by design. */
class MaxSimRerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() {
        return Providers.create(RerankerProvider.class, "maxsim", Map.of(), Path.of("target"));
    }

    @Override
    protected boolean scoresDependOnInputOrder() {
        return true;
    }

}
