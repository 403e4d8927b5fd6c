package io.corpora.engine.retriever;

import io.corpora.engine.embed.QueryWindows;
import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.Objects;

/**
 * Embeds the query and searches the bound namespace's vectors, seeing only chunks stamped with the bound
 * embedder fingerprint id. The floor is pushed into the store search; scores follow the store's metric contract.
 */
public final class VectorRetriever implements Retriever {

    static final String LEG = "vector";

    private final StoreLeg leg;
    private final Embedder embedder;
    private final String embedderId;
    private final Executor prefetcher;
    /** Query embeddings started by {@link #prefetch}, taken by the retrieval of the same query. */
    private final Map<String, CompletableFuture<QueryWindows.Embedded>> prefetched = new ConcurrentHashMap<>();

    /**
     * @param embedderId the fingerprint id the corpus generation was embedded with (the server passes the tenant's
     *                   active one); it must equal the embedder's own fingerprint id, so query and chunk vectors compare
     */
    public VectorRetriever(VectorStore store, Namespace namespace, Embedder embedder, String embedderId) {
        this(store, namespace, embedder, embedderId, null);
    }

    /** @param prefetcher runs {@link #prefetch prefetched} query embeddings; null: they are never prefetched */
    public VectorRetriever(VectorStore store, Namespace namespace, Embedder embedder, String embedderId, Executor prefetcher) {
        this.prefetcher = prefetcher;
        this.leg = new StoreLeg(LEG, store, namespace, StoreCapability.VECTOR_SEARCH);
        this.embedder = Objects.requireNonNull(embedder, "embedder");
        this.embedderId = Objects.requireNonNull(embedderId, "embedderId");
        String own = embedder.fingerprint().id();
        if (!own.equals(embedderId)) {
            throw new IllegalArgumentException("embedder fingerprint " + own + " cannot search chunks embedded by " + embedderId);
        }
    }

    public VectorRetriever(VectorStore store, Namespace namespace, Embedder embedder) {
        this(store, namespace, embedder, embedder.fingerprint().id());
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        StoreLeg.requireQuery(query);
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder().embedderId(embedderId);
        float[] vector = embedQuery(query, diagnostics);
        return leg.run(request(vector, options), options, diagnostics);
    }

    /** Starts embedding {@code query} on the prefetcher, so a hybrid's keyword leg runs beside the model. */
    @Override
    public boolean prefetch(String query) {
        if (prefetcher == null || query == null || query.isBlank()) {
            return false;
        }
        prefetched.computeIfAbsent(query, q -> CompletableFuture.supplyAsync(() -> QueryWindows.embed(embedder, q), prefetcher));
        return true;
    }

    /**
     * The query vector, timed as the {@code embed} stage (for a prefetched query: the time spent waiting for it, which is
     * what the embedding still cost this retrieval); a query longer than the embedder's window is embedded in pooled
     * windows ({@link QueryWindows}), never refused for its length.
     */
    float[] embedQuery(String query, RetrievalDiagnostics.Builder diagnostics) {
        long start = System.nanoTime();
        CompletableFuture<QueryWindows.Embedded> pending = prefetched.remove(query);
        QueryWindows.Embedded embedded = pending == null ? QueryWindows.embed(embedder, query) : join(pending);
        diagnostics.leg("embed", embedded.windows(), start);
        diagnostics.queryWindows(embedded.windows(), embedded.truncated());
        if (embedded.windows() > 1) {
            diagnostics.note("query longer than the embedder's window: " + embedded.windows() + " windows embedded and mean-pooled"
                    + (embedded.truncated() ? ", the tail beyond " + QueryWindows.MAX_WINDOWS + " windows not embedded" : ""));
        }
        return embedded.vector();
    }

    private static QueryWindows.Embedded join(CompletableFuture<QueryWindows.Embedded> pending) {
        try {
            return pending.join();
        } catch (CompletionException e) {
            // The embedder's own exception (a guard's timeout, a plugin failure), as if it had been called here.
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }

    SearchRequest request(float[] vector, RetrieveOptions options) {
        return SearchRequest.vector(vector, options.topK(), options.filter(), options.minScore(), embedderId)
                .withConsistencyToken(options.consistencyToken());
    }

    /** Hits with their stored vectors (for MMR); stores without the capability return none. */
    List<ScoredChunk> hitsWithEmbeddings(float[] vector, RetrieveOptions options, RetrievalDiagnostics.Builder diagnostics) {
        return leg.hits(request(vector, options).withEmbeddings(), diagnostics);
    }

    boolean storeReturnsEmbeddings() {
        return leg.store().capabilities().contains(StoreCapability.RETURNS_EMBEDDINGS);
    }

    public String embedderId() {
        return embedderId;
    }
}
