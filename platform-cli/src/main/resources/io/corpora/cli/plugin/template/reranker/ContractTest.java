package {{package}};

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.nio.file.Files;
import java.util.Map;

/** The test kit's reranker contract, run against {{name}} created through its service file, as the server does. */
class {{Class}}RerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() throws Exception {
        return Providers.create(RerankerProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
    }
}
