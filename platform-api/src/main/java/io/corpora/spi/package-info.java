/**
 * The Corpora plugin SPI: value types, the {@link io.corpora.spi.Namespace} every store call takes,
 * {@link io.corpora.spi.MetadataFilter} with one meaning everywhere, and pure primitives
 * ({@link io.corpora.spi.VectorMath}, {@link io.corpora.spi.RankFusion}, {@link io.corpora.spi.VectorSimilarity}).
 *
 * <p>This module depends on the JDK only. Plugins are loaded in class loaders that see this SPI and the JDK,
 * nothing else of the server.
 */
package io.corpora.spi;
