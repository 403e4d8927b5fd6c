/**
 * Chunking: {@link io.corpora.engine.chunk.Chunkers} picks a {@link io.corpora.engine.chunk.Chunker} by
 * {@link io.corpora.spi.loader.ContentFormat} — prose windows ({@link io.corpora.engine.chunk.WindowSplitter}, with
 * record packing when a separator is set), Markdown by heading with front matter, one chunk per record. Chunks never
 * span sections and inherit their metadata; ids are {@code <documentId>:<index>} ({@link io.corpora.engine.chunk.ChunkIds}).
 */
package io.corpora.engine.chunk;
