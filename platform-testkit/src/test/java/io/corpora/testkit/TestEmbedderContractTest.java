package io.corpora.testkit;

import io.corpora.spi.embed.Embedder;

/** The kit's own test embedder keeps the contract it asks of plugins (with a token limit, so that rule runs too). */
class TestEmbedderContractTest extends EmbedderContract {

    @Override
    protected Embedder newEmbedder() {
        return TestEmbedder.hashedWords(16).salt("contract").maxInputTokens(64).build();
    }
}
