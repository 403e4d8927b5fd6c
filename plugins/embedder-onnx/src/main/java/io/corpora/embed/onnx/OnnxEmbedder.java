package io.corpora.embed.onnx;

import io.corpora.onnx.BiEncoder;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.onnx.Truncation;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An {@link Embedder} on ONNX Runtime. Each text is embedded alone (no padded batches), so a text always gets the
 * same vector whatever it is batched with; a batch is spread over a fixed pool of workers, which also bounds how
 * many model runs all callers together can start.
 */
final class OnnxEmbedder implements Embedder {

    static final String PROVIDER = "onnx";

    private final BiEncoder encoder;
    private final InferenceWorkers workers;
    private final Truncation truncation;
    private final EmbedderFingerprint fingerprint;
    private final int maxQueryTokens;

    OnnxEmbedder(BiEncoder encoder, InferenceWorkers workers, Truncation truncation) {
        this.encoder = encoder;
        this.workers = workers;
        this.truncation = truncation;
        this.fingerprint = new EmbedderFingerprint(PROVIDER, encoder.spec().name(), encoder.dimension(), true, encoder.modelSha256());
        String instruction = encoder.spec().queryInstruction();
        this.maxQueryTokens = encoder.spec().maxContentTokens() - (instruction.isEmpty() ? 0 : encoder.countTokens(instruction));
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return fingerprint;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        texts.forEach(t -> Objects.requireNonNull(t, "texts must not contain null"));
        return workers.map(texts, text -> encoder.embed(text, truncation));
    }

    @Override
    public float[] embedQuery(String query) {
        Objects.requireNonNull(query, "query");
        return workers.call(() -> encoder.embedQuery(query, truncation));
    }

    @Override
    public List<float[]> embedQueries(List<String> queries) {
        queries.forEach(q -> Objects.requireNonNull(q, "queries must not contain null"));
        return workers.map(queries, query -> encoder.embedQuery(query, truncation));
    }

    /**
     * The model's sequence limit including [CLS] and [SEP] (512), as the server's chunker expects: it subtracts the
     * two special tokens before comparing with {@link #tokenCounter()}, which counts text tokens only.
     */
    @Override
    public int maxInputTokens() {
        return encoder.spec().maxSequenceTokens();
    }

    /**
     * The content window less the query instruction, which {@link BiEncoder#embedQuery} prepends; counted once (every
     * query asks for it, and tokenizing the instruction each time cost as much as tokenizing the query).
     */
    @Override
    public int maxQueryTokens() {
        return maxQueryTokens;
    }

    @Override
    public Optional<TokenCounter> tokenCounter() {
        return Optional.of(encoder::countTokens);
    }

    @Override
    public void close() {
        workers.close();
        encoder.close();
    }

    @Override
    public String toString() {
        return "OnnxEmbedder[" + fingerprint.id() + ", workers=" + workers.workers() + ", truncation=" + truncation + "]";
    }
}
