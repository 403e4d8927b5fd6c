package io.corpora.cli.eval;

import io.corpora.engine.embed.DiskEmbeddingCache;
import io.corpora.engine.embed.ForwardingEmbedder;
import io.corpora.spi.embed.Embedder;
import java.nio.file.Path;
import java.util.List;

/**
 * An embedder that remembers vectors on disk so evaluation and bench reruns skip the model: documents and queries
 * apart (queries may carry an instruction), each under the settings that made them — a <em>variant</em> ("" for the
 * defaults) — so a run with other settings never reads this one's vectors. The files are the server's document cache
 * format ({@link DiskEmbeddingCache}), owner "" (no tenant).
 */
public final class CachingEmbedder extends ForwardingEmbedder {

    private final DiskEmbeddingCache cache;
    private final DiskEmbeddingCache.Space documents;
    private final DiskEmbeddingCache.Space queries;

    public CachingEmbedder(Embedder delegate, Path directory) {
        this(delegate, directory, "", "");
    }

    /**
     * @param documentVariant the settings that made the document vectors ("" for the defaults)
     * @param queryVariant    the settings that made the query vectors
     */
    public CachingEmbedder(Embedder delegate, Path directory, String documentVariant, String queryVariant) {
        super(delegate);
        this.cache = DiskEmbeddingCache.open(directory, delegate.fingerprint(), DiskEmbeddingCache.DEFAULT_MAX_BYTES);
        this.documents = new DiskEmbeddingCache.Space("", "document", documentVariant);
        this.queries = new DiskEmbeddingCache.Space("", "query", queryVariant);
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return cache.embed(documents, texts, delegate::embedDocuments);
    }

    @Override
    public float[] embedQuery(String query) {
        return cache.embed(queries, List.of(query), q -> List.of(delegate.embedQuery(q.get(0)))).get(0);
    }

    public long hits() {
        return cache.hits();
    }

    public long misses() {
        return cache.misses();
    }

    /** Closes the cache and the model (the eval and the bench hand theirs over). */
    @Override
    public void close() {
        try {
            cache.close();
        } finally {
            delegate.close();
        }
    }
}
