package io.corpora.rerank.onnx;

import io.corpora.onnx.BertTokenizer;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.onnx.ModelBytes;
import io.corpora.onnx.OnnxSession;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.util.List;

/** Provider {@code onnx-cross-encoder}: runs an operator-supplied cross-encoder ONNX model. Nothing is bundled. */
public final class CrossEncoderRerankerProvider implements RerankerProvider {

    @Override
    public String name() {
        return "onnx-cross-encoder";
    }

    @Override
    public String description() {
        return "Cross-encoder reranking with an operator-supplied ONNX model and tokenizer.json (no weights are bundled)";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return CrossEncoderSettings.options();
    }

    @Override
    public Reranker create(PluginContext context, PluginConfig config) {
        CrossEncoderSettings settings = CrossEncoderSettings.from(config);
        ModelBytes model = ModelBytes.fromPath(settings.modelPath(), "cross-encoder model file (modelPath)");
        ModelBytes tokenizerJson = ModelBytes.fromPath(settings.tokenizerPath(), "cross-encoder tokenizer file (tokenizerPath)");
        BertTokenizer tokenizer = BertTokenizer.fromJson(tokenizerJson.openStream(), tokenizerJson.source());
        OnnxSession session = OnnxSession.open(model, settings.intraOpThreads(), settings.outputName());
        CrossEncoderReranker reranker = new CrossEncoderReranker(tokenizer, session,
                new InferenceWorkers(settings.workers(), "reranker-onnx-cross-encoder"), settings, context.logger());
        try {
            reranker.score("warm up", List.of("warm up")); // first run allocates; also proves the output is usable
        } catch (RuntimeException e) {
            reranker.close();
            throw new IllegalArgumentException("cross-encoder " + model.source() + " cannot score a pair: " + e.getMessage(), e);
        }
        context.logger().info(() -> "loaded cross-encoder " + model);
        return reranker;
    }
}
