package io.corpora.engine.retriever;

import io.corpora.spi.RankFusion;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.Objects;

/**
 * A tenant's hybrid fusion, as configured under {@code retrieval.fusion}: either weighted RRF ({@code k} and a
 * weight per leg) or a convex combination of normalised scores ({@code normalization}, {@code alpha} = the vector
 * leg's weight, the keyword leg gets {@code 1 − alpha}). Fields of the other method are kept but unused, so
 * switching back and forth loses nothing.
 *
 * @param method         {@code rrf} or {@code convex}
 * @param k              RRF constant, &gt; 0 (60 as in Cormack et al.)
 * @param vectorWeight   RRF weight of the vector leg, 0..10
 * @param keywordWeight  RRF weight of the keyword leg, 0..10 (not both 0)
 * @param alpha          convex weight of the vector leg, 0..1
 * @param normalization  convex score normalisation, {@code minmax} or {@code zscore}
 */
public record FusionSpec(String method, double k, double vectorWeight, double keywordWeight, double alpha, String normalization) {

    public static final String RRF = "rrf";
    public static final String CONVEX = "convex";
    public static final double MAX_WEIGHT = 10;

    /**
     * The shipped default: a convex combination of z-score-normalised leg scores, alpha 0.6 for the vector leg — the
     * best on the train splits of both datasets measured here (SciFact and NFCorpus, full corpora), and at or above the
     * better single leg on both test splits (README "Retrieval quality"). A tenant tunes its own with an evaluation.
     */
    public static final FusionSpec STANDARD = new FusionSpec(CONVEX, RankFusion.DEFAULT_K, 1, 1, 0.6, "zscore");

    public FusionSpec {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(normalization, "normalization");
        method = method.toLowerCase(Locale.ROOT);
        normalization = normalization.toLowerCase(Locale.ROOT);
        if (!method.equals(RRF) && !method.equals(CONVEX)) {
            throw new IllegalArgumentException("fusion.method must be rrf or convex, got '" + method + "'");
        }
        if (!(k > 0) || !Double.isFinite(k) || k > 10_000) {
            throw new IllegalArgumentException("fusion.k must be a number in (0, 10000], got " + k);
        }
        requireWeight("fusion.weights.vector", vectorWeight);
        requireWeight("fusion.weights.keyword", keywordWeight);
        if (vectorWeight == 0 && keywordWeight == 0) {
            throw new IllegalArgumentException("fusion.weights: at least one leg weight must be > 0");
        }
        if (!(alpha >= 0 && alpha <= 1)) {
            throw new IllegalArgumentException("fusion.alpha must be a number in [0, 1], got " + alpha);
        }
        ConvexFusion.Normalization.parse(normalization);
    }

    private static void requireWeight(String name, double w) {
        if (!(w >= 0 && w <= MAX_WEIGHT)) {
            throw new IllegalArgumentException(name + " must be a number in [0, " + number(MAX_WEIGHT) + "], got " + w);
        }
    }

    public static FusionSpec rrf(double k, double vectorWeight, double keywordWeight) {
        return new FusionSpec(RRF, k, vectorWeight, keywordWeight, STANDARD.alpha, STANDARD.normalization);
    }

    public static FusionSpec convex(String normalization, double alpha) {
        return new FusionSpec(CONVEX, STANDARD.k, STANDARD.vectorWeight, STANDARD.keywordWeight, alpha, normalization);
    }

    public Fusion fusion() {
        return method.equals(RRF) ? new ReciprocalRankFusion(k) : new ConvexFusion(ConvexFusion.Normalization.parse(normalization));
    }

    /** The weight of the named leg ({@code vector} or {@code keyword}) under this method. */
    public double weight(String leg) {
        boolean vector = leg.equals(VectorRetriever.LEG);
        if (method.equals(CONVEX)) {
            return vector ? alpha : 1 - alpha;
        }
        return vector ? vectorWeight : keywordWeight;
    }

    /** A short stable label for reports and configuration fingerprints, e.g. {@code rrf(k=60,v=1,kw=1)}. */
    public String describe() {
        return method.equals(RRF)
                ? "rrf(k=" + number(k) + ",v=" + number(vectorWeight) + ",kw=" + number(keywordWeight) + ")"
                : "convex(" + normalization + ",alpha=" + number(alpha) + ")";
    }

    /**
     * Parses a compact label as the command line takes it: {@code rrf}, {@code rrf:K}, {@code rrf:K:VW:KW},
     * {@code convex-minmax:ALPHA}, {@code convex-zscore:ALPHA}.
     */
    public static FusionSpec parse(String label) {
        String[] parts = label.strip().split(":");
        try {
            return switch (parts[0]) {
                case "rrf" -> rrf(parts.length > 1 ? Double.parseDouble(parts[1]) : RankFusion.DEFAULT_K,
                        parts.length > 3 ? Double.parseDouble(parts[2]) : 1, parts.length > 3 ? Double.parseDouble(parts[3]) : 1);
                case "convex-minmax", "convex-zscore" -> {
                    if (parts.length != 2) {
                        throw new IllegalArgumentException("'" + label + "' needs an alpha, e.g. " + parts[0] + ":0.5");
                    }
                    yield convex(parts[0].substring("convex-".length()), Double.parseDouble(parts[1]));
                }
                default -> throw new IllegalArgumentException("unknown fusion '" + label
                        + "'; expected rrf[:K[:VW:KW]], convex-minmax:ALPHA or convex-zscore:ALPHA");
            };
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("fusion '" + label + "' has a part that is not a number");
        }
    }

    static String number(double x) {
        return BigDecimal.valueOf(x).stripTrailingZeros().toPlainString();
    }
}
