package io.corpora.embed.onnx;

import io.corpora.onnx.BiEncoder;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import java.util.List;

/** Provider {@code onnx}: the bundled default embedder (bge-small-en-v1.5, int8) or an operator-supplied ONNX model. */
public final class OnnxEmbedderProvider implements EmbedderProvider {

    @Override
    public String name() {
        return OnnxEmbedder.PROVIDER;
    }

    @Override
    public String description() {
        return "Offline sentence embeddings on ONNX Runtime; default bge-small-en-v1.5 (int8, 384 dimensions, 512 tokens)";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return EmbedderSettings.options();
    }

    /** The model choice and the options it allows, as {@link #create} reads them (a custom model's files are for create). */
    @Override
    public void validate(PluginConfig config) {
        EmbedderSettings.from(config);
    }

    @Override
    public Embedder create(PluginContext context, PluginConfig config) {
        EmbedderSettings settings = EmbedderSettings.from(config);
        BiEncoder encoder = BiEncoder.load(settings.spec(), settings.source().model(), settings.source().tokenizer(),
                settings.intraOpThreads(), context.logger());
        InferenceWorkers workers = new InferenceWorkers(settings.workers(), "embedder-onnx");
        OnnxEmbedder embedder = new OnnxEmbedder(encoder, workers, settings.truncation());
        context.logger().info(() -> "loaded " + embedder);
        return embedder;
    }
}
