package io.corpora.engine.embed;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.Objects;
import java.util.Optional;

/**
 * Base of an embedder decorator (guarded, cached, precomputed): what describes the model — fingerprint, token limit,
 * tokenizer — is the wrapped embedder's, so a decorator can never change the vectors' identity; the embedding calls
 * are the subclass's. Closing a decorator leaves the wrapped embedder open: it is usually shared.
 */
public abstract class ForwardingEmbedder implements Embedder {

    protected final Embedder delegate;

    protected ForwardingEmbedder(Embedder delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public final EmbedderFingerprint fingerprint() {
        return delegate.fingerprint();
    }

    @Override
    public final int dimension() {
        return delegate.dimension();
    }

    @Override
    public final int maxInputTokens() {
        return delegate.maxInputTokens();
    }

    @Override
    public final int maxQueryTokens() {
        return delegate.maxQueryTokens();
    }

    @Override
    public final Optional<TokenCounter> tokenCounter() {
        return delegate.tokenCounter();
    }

    @Override
    public void close() {}
}
