package io.corpora.engine.index;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes chunks to a bound store namespace: the contextualizer makes each chunk's index text, the embedder (if any)
 * embeds the index texts, each chunk is stamped with the embedder's fingerprint id
 * ({@link ReservedKeys#EMBEDDER}) so vector searches see only comparable vectors, and the batch is upserted.
 * Other reserved keys (tenant, partition, version) are the server's to stamp before calling this.
 */
public final class ChunkIndexer {

    private final VectorStore store;
    private final Namespace namespace;
    private final Embedder embedder;
    private final HeadingContextualizer contextualizer;

    /** @param embedder null for a keyword-only corpus (chunks are stored without vectors) */
    public ChunkIndexer(VectorStore store, Namespace namespace, Embedder embedder, HeadingContextualizer contextualizer) {
        this.store = Objects.requireNonNull(store, "store");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        this.embedder = embedder;
        this.contextualizer = Objects.requireNonNull(contextualizer, "contextualizer");
    }

    /** Contextualizes, embeds, stamps and upserts; returns what was written. */
    public List<EmbeddedChunk> index(List<Chunk> chunks) {
        return index(chunks, chunks.stream().map(contextualizer::indexText).toList());
    }

    /** Embeds, stamps and upserts chunks whose index texts were made already (one per chunk, in order). */
    public List<EmbeddedChunk> index(List<Chunk> chunks, List<String> indexTexts) {
        if (indexTexts.size() != chunks.size()) {
            throw new IllegalArgumentException(indexTexts.size() + " index texts for " + chunks.size() + " chunks");
        }
        if (chunks.isEmpty()) {
            return List.of();
        }
        List<float[]> vectors = embedder == null ? null : embedder.embedDocuments(indexTexts);
        if (vectors != null && vectors.size() != chunks.size()) {
            throw new IllegalStateException("embedder returned " + vectors.size() + " vectors for " + chunks.size() + " texts");
        }
        String embedderId = embedder == null ? null : embedder.fingerprint().id();
        List<EmbeddedChunk> embedded = new ArrayList<>(chunks.size());
        for (int i = 0; i < chunks.size(); i++) {
            Chunk chunk = chunks.get(i);
            if (embedderId != null) {
                Map<String, Object> metadata = new LinkedHashMap<>(chunk.metadata());
                metadata.put(ReservedKeys.EMBEDDER, embedderId);
                chunk = chunk.withMetadata(metadata);
            }
            embedded.add(new EmbeddedChunk(chunk, indexTexts.get(i), vectors == null ? null : vectors.get(i)));
        }
        store.upsert(namespace, embedded);
        return embedded;
    }
}
