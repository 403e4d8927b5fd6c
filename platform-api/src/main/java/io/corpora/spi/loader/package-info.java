/**
 * Document loaders: bytes of one media type to a {@link io.corpora.spi.loader.LoadedDocument} of sections and
 * metadata, within the limits of a {@link io.corpora.spi.loader.LoadRequest}.
 */
package io.corpora.spi.loader;
