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
import java.util.concurrent.CompletableFuture;
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
    private final Executor background;

    /**
     * @param embedderId the fingerprint id the corpus generation was embedded with (the server passes the tenant's
     *                   active one); it must equal the embedder's own fingerprint id, so query and chunk vectors compare
     */
    public VectorRetriever(VectorStore store, Namespace namespace, Embedder embedder, String embedderId) {
        this(store, namespace, embedder, embedderId, null);
    }

    /**
     * @param background where a {@link #start started} retrieval embeds its query and calls the store; null: started
     *                   retrievals run when joined
     */
    public VectorRetriever(VectorStore store, Namespace namespace, Embedder embedder, String embedderId, Executor background) {
        this.background = background;
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

    /**
     * With a background executor, the query embedding and then the store's search run there, one task, while the
     * caller goes on (a hybrid's keyword leg meanwhile); the hits are checked when joined, on the caller's thread.
     */
    @Override
    public PendingRetrieval start(String query, RetrieveOptions options) {
        if (background == null) {
            return Retriever.super.start(query, options);
        }
        StoreLeg.requireQuery(query);
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder().embedderId(embedderId);
        CompletableFuture<Fetched> work = CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            QueryWindows.Embedded embedded = QueryWindows.embed(embedder, query);
            long embeddedAt = System.nanoTime();
            PreparedSearch search = leg.prepare(request(embedded.vector(), options));
            search.fetch();
            return new Fetched(embedded, embeddedAt - start, search, System.nanoTime() - embeddedAt);
        }, background);
        return PendingRetrieval.inBackground(() -> {
            Fetched fetched = PendingRetrieval.await(work);
            record(fetched.embedded(), System.nanoTime() - fetched.embedNanos(), diagnostics);
            return leg.finish(fetched.search(), fetched.fetchNanos(), options, diagnostics);
        });
    }

    private record Fetched(QueryWindows.Embedded embedded, long embedNanos, PreparedSearch search, long fetchNanos) {}

    /**
     * The query vector, timed as the {@code embed} stage; a query longer than the embedder's window is embedded in
     * pooled windows ({@link QueryWindows}), never refused for its length.
     */
    float[] embedQuery(String query, RetrievalDiagnostics.Builder diagnostics) {
        long start = System.nanoTime();
        QueryWindows.Embedded embedded = QueryWindows.embed(embedder, query);
        record(embedded, start, diagnostics);
        return embedded.vector();
    }

    private static void record(QueryWindows.Embedded embedded, long sinceNanos, RetrievalDiagnostics.Builder diagnostics) {
        diagnostics.leg("embed", embedded.windows(), sinceNanos);
        diagnostics.queryWindows(embedded.windows(), embedded.truncated());
        if (embedded.windows() > 1) {
            diagnostics.note("query longer than the embedder's window: " + embedded.windows() + " windows embedded and mean-pooled"
                    + (embedded.truncated() ? ", the tail beyond " + QueryWindows.MAX_WINDOWS + " windows not embedded" : ""));
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
