package io.corpora.benchmarks;

import io.corpora.engine.retriever.Fusion;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import java.util.List;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * One hybrid fusion of two legs, as {@code HybridRetriever} runs it: each leg's passages best first (a leg fetches
 * 50 by default), half of the keyword leg's also in the vector leg; weights and methods as {@link FusionSpec} makes
 * them for the shipped default (convex z-score, α 0.6), convex min-max and RRF k=60.
 */
public class FusionBenchmark extends CoreBenchmark {

    /** Passages per leg: HybridRetriever's default fetch (50), and the 100 of a topK-20 call with its 5x fetch. */
    @Param({"50", "100"})
    public int perLeg;

    private List<List<Passage>> legs;
    private final Fusion convexZscore = FusionSpec.STANDARD.fusion();
    private final double[] convexZscoreWeights = weights(FusionSpec.STANDARD);
    private final Fusion convexMinMax = FusionSpec.convex("minmax", 0.6).fusion();
    private final double[] convexMinMaxWeights = weights(FusionSpec.convex("minmax", 0.6));
    private final Fusion rrf = FusionSpec.rrf(60, 1, 1).fusion();
    private final double[] rrfWeights = weights(FusionSpec.rrf(60, 1, 1));

    @Setup
    public void setUp() {
        Namespace namespace = Namespace.of("bench");
        legs = List.of(BenchHits.passages(BenchHits.vectorLeg(namespace, perLeg, 1)),
                BenchHits.passages(BenchHits.keywordLeg(namespace, perLeg, 2)));
    }

    @Benchmark
    public List<Passage> convexZscoreDefault() {
        return convexZscore.fuse(legs, convexZscoreWeights);
    }

    @Benchmark
    public List<Passage> convexMinMax() {
        return convexMinMax.fuse(legs, convexMinMaxWeights);
    }

    @Benchmark
    public List<Passage> reciprocalRank() {
        return rrf.fuse(legs, rrfWeights);
    }

    private static double[] weights(FusionSpec spec) {
        return new double[] {spec.weight("vector"), spec.weight("keyword")};
    }
}
