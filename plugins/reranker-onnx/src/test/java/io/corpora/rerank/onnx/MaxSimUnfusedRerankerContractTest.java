package io.corpora.rerank.onnx;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Path;
import java.util.Map;

/** MaxSim without input-order fusion: a passage's score is its own, wherever it stands and whatever it is scored with. */
class MaxSimUnfusedRerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() {
        return Providers.create(RerankerProvider.class, "maxsim", Map.of("fuseWithInputOrder", "false"), Path.of("target"));
    }
}
