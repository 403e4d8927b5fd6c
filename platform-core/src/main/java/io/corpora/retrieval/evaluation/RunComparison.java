package io.corpora.retrieval.evaluation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * An evaluation run's candidates beside the previous comparable run of the same tenant (same judged set, Recall@k and
 * actor): per candidate label the change of nDCG@10, Recall@k and MRR@10, the queries whose nDCG@10 fell (worst
 * first), and a regression when nDCG@10 fell by more than {@code maxDrop}. A candidate the previous run did not have
 * has no comparison. Falls are compared rounded to four decimals, as every report prints them: a fall shown as 0.0100
 * with {@code maxDrop} 0.01 is not a regression.
 */
public final class RunComparison {

    /** The nDCG@10 fall that is a regression when neither the request nor the tenant says otherwise. */
    public static final double DEFAULT_MAX_DROP = 0.01;
    /** How many worsened queries a comparison lists. */
    public static final int WORSE_QUERIES_SHOWN = 10;

    /** One candidate's scores in one run; {@code queryNdcg} is query id → nDCG@10. */
    public record Scores(String label, double ndcg10, double recall, double mrr10, Map<String, Double> queryNdcg) {
        public Scores {
            Objects.requireNonNull(label, "label");
            queryNdcg = Map.copyOf(queryNdcg);
        }
    }

    /** A query whose nDCG@10 fell from {@code before} to {@code after}. */
    public record WorseQuery(String queryId, double before, double after) {}

    /**
     * One candidate against the same label in {@code previousRun}; deltas are current − previous.
     *
     * @param worse up to {@value #WORSE_QUERIES_SHOWN} queries whose nDCG@10 fell, largest fall first
     */
    public record Change(String previousRun, double ndcg10Delta, double recallDelta, double mrr10Delta, double maxDrop, boolean regression,
                         List<WorseQuery> worse) {}

    private RunComparison() {}

    /**
     * Per candidate of {@code current}, in its order, the change against the same label in {@code previous} (run id
     * {@code previousRun}); null where there is nothing to compare with (no previous run, or no such candidate in it).
     */
    public static List<Change> compare(List<Scores> current, String previousRun, List<Scores> previous, double maxDrop) {
        if (!(maxDrop >= 0)) {
            throw new IllegalArgumentException("maxDrop must be ≥ 0, got " + maxDrop);
        }
        Map<String, Scores> before = new LinkedHashMap<>();
        previous.forEach(p -> before.putIfAbsent(p.label(), p));
        List<Change> changes = new ArrayList<>();
        for (Scores now : current) {
            Scores then = before.get(now.label());
            changes.add(then == null ? null : change(now, previousRun, then, maxDrop));
        }
        return Collections.unmodifiableList(changes);
    }

    /** True when any candidate regressed. */
    public static boolean regressed(List<Change> changes) {
        return changes.stream().anyMatch(c -> c != null && c.regression());
    }

    private static Change change(Scores now, String previousRun, Scores then, double maxDrop) {
        List<WorseQuery> worse = new ArrayList<>();
        now.queryNdcg().forEach((query, after) -> {
            Double was = then.queryNdcg().get(query);
            if (was != null && round(was - after) > 0) {
                worse.add(new WorseQuery(query, was, after));
            }
        });
        worse.sort(Comparator.comparingDouble((WorseQuery w) -> w.after() - w.before()).thenComparing(WorseQuery::queryId));
        boolean regression = round(then.ndcg10() - now.ndcg10()) > maxDrop;
        return new Change(previousRun, now.ndcg10() - then.ndcg10(), now.recall() - then.recall(), now.mrr10() - then.mrr10(), maxDrop,
                regression, List.copyOf(worse.subList(0, Math.min(WORSE_QUERIES_SHOWN, worse.size()))));
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
