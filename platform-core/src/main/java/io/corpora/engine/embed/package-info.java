/** Embedder decorators: the base that keeps the wrapped embedder's identity (fingerprint, token limit, tokenizer). */
package io.corpora.engine.embed;
