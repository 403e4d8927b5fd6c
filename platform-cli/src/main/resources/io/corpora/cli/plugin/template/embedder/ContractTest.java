package {{package}};

import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.testkit.EmbedderContract;
import io.corpora.testkit.Providers;
import java.nio.file.Files;
import java.util.Map;

/** The test kit's embedder contract, run against {{name}} created through its service file, as the server does. */
class {{Class}}EmbedderContractTest extends EmbedderContract {

    @Override
    protected Embedder newEmbedder() throws Exception {
        return Providers.create(EmbedderProvider.class, "{{name}}", Map.of(), Files.createTempDirectory("{{name}}"));
    }
}
