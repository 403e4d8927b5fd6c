package io.corpora.onnx;

import io.corpora.spi.VectorMath;
import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

/**
 * A sentence-embedding model: tokenizes, runs one sequence per model call (no padding, so the same text always
 * gives the same vector), pools and L2-normalises. Thread-safe; callers bound concurrency with
 * {@link InferenceWorkers}.
 */
public final class BiEncoder implements AutoCloseable {

    private final BiEncoderSpec spec;
    private final BertTokenizer tokenizer;
    private final OnnxSession session;
    private final String modelSha256;
    private final int dimension;
    private final Logger logger;

    private BiEncoder(BiEncoderSpec spec, BertTokenizer tokenizer, OnnxSession session, String modelSha256, Logger logger) {
        this.spec = spec;
        this.tokenizer = tokenizer;
        this.session = session;
        this.modelSha256 = modelSha256;
        this.logger = logger;
        // Warm-up: the first run allocates and optimises; it also tells the vector width.
        this.dimension = embedTokens(tokenizer.tokenIds("warm up")).length;
    }

    /** Loads the model and tokenizer and runs a warm-up inference. */
    public static BiEncoder load(BiEncoderSpec spec, ModelBytes model, ModelBytes tokenizerJson, int intraOpThreads, Logger logger) {
        BertTokenizer tokenizer = BertTokenizer.fromJson(tokenizerJson.openStream(), tokenizerJson.source());
        OnnxSession session = OnnxSession.open(model, intraOpThreads, null);
        try {
            return new BiEncoder(spec, tokenizer, session, model.sha256(), logger);
        } catch (RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** The vector of {@code text} as given (no instruction added). */
    public float[] embed(String text, Truncation truncation) {
        return embedTokens(fit(tokenizer.tokenIds(text), truncation));
    }

    /** The vector of a retrieval query: the model's query instruction, then {@code query}. */
    public float[] embedQuery(String query, Truncation truncation) {
        return embed(spec.queryInstruction() + query, truncation);
    }

    /** Token ids cut to the model's limit, or an error, per {@code truncation}. */
    int[] fit(int[] ids, Truncation truncation) {
        int limit = spec.maxContentTokens();
        if (ids.length <= limit) {
            return ids;
        }
        if (truncation == Truncation.ERROR) {
            throw new InputTooLongException(spec.name(), ids.length, limit);
        }
        logger.warning(() -> "truncating input of " + ids.length + " tokens to the " + limit + "-token limit of model " + spec.name());
        return Arrays.copyOf(ids, limit);
    }

    private float[] embedTokens(int[] ids) {
        Encoding encoding = tokenizer.single(ids);
        OutputTensor states = session.run(List.of(encoding));
        if (states.rank() != 3) {
            throw new IllegalStateException("model " + spec.name() + " output '" + states.name() + "' has rank " + states.rank()
                    + "; a bi-encoder must return per-token states [batch, tokens, hidden]");
        }
        return VectorMath.l2Normalize(spec.pooling().pool(states, 0, encoding.length()));
    }

    public int countTokens(String text) {
        return tokenizer.countTokens(text);
    }

    public BiEncoderSpec spec() {
        return spec;
    }

    public int dimension() {
        return dimension;
    }

    /** SHA-256 of the model file bytes. */
    public String modelSha256() {
        return modelSha256;
    }

    public BertTokenizer tokenizer() {
        return tokenizer;
    }

    @Override
    public void close() {
        session.close();
    }
}
