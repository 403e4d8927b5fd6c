package io.corpora.rerank.onnx;

import io.corpora.onnx.BundledModel;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.Providers;
import io.corpora.testkit.RerankerContract;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The cross-encoder with the bundled bge-small model standing in for a cross-encoder's weights (no cross-encoder is
 * bundled; the contract is about scores and their shape, not their quality), one pair per model run.
 *
 * <p>The suite found that at the default {@code batchSize} (8) a pair's score depends on the pairs batched with it —
 * by 4e-3 with this int8 model, whose dynamic quantisation scales each run's activations over the whole batch — so the
 * same passage could rank differently from one request to the next. With {@code batchSize: 1} it does not.
 */
class CrossEncoderRerankerContractTest extends RerankerContract {

    @Override
    protected Reranker newReranker() {
        Path dir = Path.of("target", "cross-encoder-contract");
        try {
            Files.createDirectories(dir);
            try (InputStream in = BundledModel.BGE_SMALL_EN_V15_Q.modelBytes().openStream()) {
                Files.copy(in, dir.resolve("stand-in.onnx"), StandardCopyOption.REPLACE_EXISTING);
            }
            try (InputStream in = BundledModel.BGE_SMALL_EN_V15_Q.tokenizerBytes().openStream()) {
                Files.copy(in, dir.resolve("tokenizer.json"), StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Providers.create(RerankerProvider.class, "onnx-cross-encoder",
                Map.of("modelPath", dir.resolve("stand-in.onnx").toString(), "batchSize", "1"), dir);
    }
}
