package io.corpora.spi.embed;

import io.corpora.spi.EmbedderFingerprint;
import java.util.List;
import java.util.Optional;

/**
 * Turns text into vectors. The same text must always give the same vector (no batch-dependent padding
 * effects), and input longer than {@link #maxInputTokens()} must never be truncated silently: either the
 * chunker sizes chunks with {@link #tokenCounter()}, or the embedder fails with a clear error.
 * Implementations are thread-safe.
 *
 * <p><b>Failures</b> (the SPI's failure contract, {@link io.corpora.spi.PluginException}): input beyond the model's
 * limit, when the embedder does not split it, is an {@link io.corpora.spi.InvalidInputException} (a caller error, never
 * retried); an unreachable or overloaded backend a {@link io.corpora.spi.PluginException} of kind
 * {@link io.corpora.spi.FailureKind#TRANSIENT}; a model that cannot run at all (missing file, wrong credentials) one of
 * kind {@link io.corpora.spi.FailureKind#PERMANENT}. An empty list gives an empty list. Any other exception is treated
 * as transient.
 */
public interface Embedder extends AutoCloseable {

    EmbedderFingerprint fingerprint();

    default int dimension() {
        return fingerprint().dimension();
    }

    /** Embeds passages for indexing, in order. */
    List<float[]> embedDocuments(List<String> texts);

    /** Embeds a search query (with the model's query instruction, if it has one). */
    float[] embedQuery(String query);

    /** Embeds several queries at once; by default one by one. */
    default List<float[]> embedQueries(List<String> queries) {
        return queries.stream().map(this::embedQuery).toList();
    }

    /** The model's token limit per input (0 when unknown or unlimited). */
    default int maxInputTokens() {
        return 0;
    }

    /**
     * How many text tokens (as {@link #tokenCounter()} counts them) one {@link #embedQuery} call reads, after the
     * query instruction and special tokens; 0 when unknown. Callers split longer queries into windows rather than
     * have them refused. Since SPI 1.3; a 1.0 to 1.2 embedder answers 0 and callers fall back to
     * {@link #maxInputTokens()} with a margin.
     */
    default int maxQueryTokens() {
        return 0;
    }

    /** The model's tokenizer, when it exposes one. */
    default Optional<TokenCounter> tokenCounter() {
        return Optional.empty();
    }

    @Override
    default void close() {}
}
