package io.corpora.embed.onnx;

import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.testkit.EmbedderContract;
import io.corpora.testkit.Providers;
import java.nio.file.Path;
import java.util.Map;

/** The bundled bge-small embedder, with two inference workers so batches really are split across threads. */
class OnnxEmbedderContractTest extends EmbedderContract {

    @Override
    protected Embedder newEmbedder() {
        return Providers.create(EmbedderProvider.class, OnnxEmbedder.PROVIDER, Map.of("workers", "2"), Path.of("target"));
    }
}
