package io.corpora.engine.retriever;

import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RankFusion;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;

/**
 * Fusion over any number of retrievers: each leg fetches its own {@code fetchTopK}, and the legs' rankings are merged
 * by a {@link Fusion} with per-leg weights — reciprocal rank fusion ({@link ReciprocalRankFusion}, with the constant
 * {@code k}; what the constructor without a fusion uses) or a convex combination of normalised scores
 * ({@link ConvexFusion}; a tenant's standard, {@link FusionSpec#STANDARD}). Passages are
 * deduplicated by id so a chunk found by several legs is reinforced.
 *
 * <p>A fused score is a rank statistic or a blend of normalised scores, not a similarity, so
 * {@link RetrieveOptions#minScore()} cannot apply to it:
 * asking for it is an {@link IllegalArgumentException}, not a silent no-op. Put a floor on a leg instead, or
 * rerank and floor the reranker's scores.
 */
public final class HybridRetriever implements Retriever {

    public static final int DEFAULT_FETCH_TOP_K = 50;

    /**
     * One fused retriever.
     *
     * @param name      names the leg in diagnostics
     * @param weight    its fusion weight, &gt;= 0
     * @param fetchTopK how many candidates it contributes (at least the request's topK)
     */
    public record Leg(String name, Retriever retriever, double weight, int fetchTopK) {
        public Leg {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(retriever, "retriever");
            if (!(weight >= 0) || !Double.isFinite(weight)) {
                throw new IllegalArgumentException("weight of leg '" + name + "' must be a finite number >= 0, got " + weight);
            }
            if (fetchTopK < 1 || fetchTopK > RetrieveOptions.MAX_TOP_K) {
                throw new IllegalArgumentException("fetchTopK of leg '" + name + "' must be 1.." + RetrieveOptions.MAX_TOP_K
                        + ", got " + fetchTopK);
            }
        }

        public static Leg of(String name, Retriever retriever) {
            return new Leg(name, retriever, 1.0, DEFAULT_FETCH_TOP_K);
        }
    }

    private final List<Leg> legs;
    private final Fusion fusion;

    public HybridRetriever(List<Leg> legs, Fusion fusion) {
        if (legs == null || legs.isEmpty()) {
            throw new IllegalArgumentException("a hybrid retriever needs at least one leg");
        }
        this.legs = List.copyOf(legs);
        this.fusion = Objects.requireNonNull(fusion, "fusion");
    }

    public HybridRetriever(List<Leg> legs, double k) {
        this(legs, new ReciprocalRankFusion(k));
    }

    /** Legs weighted as the tenant's fusion says ({@link FusionSpec#weight}), fused by its method. */
    public static HybridRetriever of(FusionSpec spec, Retriever vector, Retriever keyword, int fetchTopK) {
        return new HybridRetriever(List.of(new Leg(VectorRetriever.LEG, vector, spec.weight(VectorRetriever.LEG), fetchTopK),
                new Leg(KeywordRetriever.LEG, keyword, spec.weight(KeywordRetriever.LEG), fetchTopK)), spec.fusion());
    }

    /**
     * A tenant's hybrid retrieval over one store, as the server composes it: the vector leg (its query embedding and
     * search started on {@code background}) beside the store's keyword leg, both over {@code embedderId}'s chunks and
     * {@link #DEFAULT_FETCH_TOP_K} deep, fused as {@code spec} says. The bench measures this same composition.
     */
    public static HybridRetriever overStore(FusionSpec spec, VectorStore store, Namespace namespace, Embedder embedder, String embedderId,
                                            Executor background) {
        return of(spec, new VectorRetriever(store, namespace, embedder, embedderId, background),
                new KeywordRetriever(store, namespace, embedderId), DEFAULT_FETCH_TOP_K);
    }

    public HybridRetriever(List<Leg> legs) {
        this(legs, RankFusion.DEFAULT_K);
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        if (options.minScore() != null) {
            throw new IllegalArgumentException("minScore " + options.minScore() + " cannot apply to a hybrid retrieval: "
                    + "a fused score (" + fusion.describe() + ") is " + (fusion.rankBased() ? "a rank statistic" : "a blend of normalised scores")
                    + ", not a similarity. Remove minScore, floor a single leg, or rerank.");
        }
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder(); // from here: totalMillis covers the legs
        // Every leg starts; those working in the background (a query embedding, a store call) go on while the others run
        // here, and are joined last. Results are fused and reported in the declared order whatever the order they ran in.
        PendingRetrieval[] pending = new PendingRetrieval[legs.size()];
        for (int i = 0; i < legs.size(); i++) {
            pending[i] = legs.get(i).retriever().start(query, ResultShaper.inner(options, legs.get(i).fetchTopK()));
        }
        RetrievalResult[] results = new RetrievalResult[legs.size()];
        for (int i = 0; i < legs.size(); i++) {
            if (!pending[i].inBackground()) {
                results[i] = pending[i].join();
            }
        }
        for (int i = 0; i < legs.size(); i++) {
            if (pending[i].inBackground()) {
                results[i] = pending[i].join();
            }
        }
        List<List<Passage>> rankings = new ArrayList<>();
        double[] weights = new double[legs.size()];
        for (int i = 0; i < legs.size(); i++) {
            RetrievalResult result = results[i];
            diagnostics.absorb(result.diagnostics());
            rankings.add(result.passages());
            weights[i] = legs.get(i).weight();
        }
        long fuseStart = System.nanoTime();
        List<Passage> fused = fusion.fuse(rankings, weights);
        diagnostics.leg("fusion", fused.size(), fuseStart);
        List<Passage> shaped = ResultShaper.shape(fused, options, false, diagnostics);
        return new RetrievalResult(shaped, diagnostics.build());
    }
}
