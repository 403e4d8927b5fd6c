/** Embedders: text to vectors, identified by an {@link io.corpora.spi.EmbedderFingerprint}, and their providers. */
package io.corpora.spi.embed;
