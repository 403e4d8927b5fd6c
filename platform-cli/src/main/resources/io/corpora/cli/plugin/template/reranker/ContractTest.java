package {{package}};

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class {{Class}}RerankerContractTest {

    @Test
    void oneFiniteScorePerText() throws Exception {
        Reranker r = Providers.create(RerankerProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
        double[] scores = r.score("vector search", List.of("about vector search", "about cooking"));
        assertEquals(2, scores.length);
        assertEquals(true, scores[0] > scores[1]);
    }
}
