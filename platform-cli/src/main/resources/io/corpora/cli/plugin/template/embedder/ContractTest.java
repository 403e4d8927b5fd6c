package {{package}};

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class {{Class}}EmbedderContractTest {

    private Embedder embedder() throws Exception {
        return Providers.create(EmbedderProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
    }

    @Test
    void batchEqualsSingleAndWidthMatchesFingerprint() throws Exception {
        Embedder e = embedder();
        List<float[]> batch = e.embedDocuments(List.of("alpha beta", "gamma"));
        assertArrayEquals(e.embedDocuments(List.of("gamma")).get(0), batch.get(1));
        assertEquals(e.fingerprint().dimension(), batch.get(0).length);
    }
}
