package io.corpora.cli.eval;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A server evaluation's candidates beside the tenant's previous run on the same judged set: per candidate label the
 * change of nDCG@10, and a regression when it fell by more than {@code maxDrop}, with the queries whose nDCG@10 fell.
 * The server stores the history but does not compare runs; this is that comparison.
 */
public final class RunComparison {

    /** How many worsened queries a regression lists. */
    static final int WORSE_QUERIES_SHOWN = 10;

    /** One candidate's numbers as {@code GET …/evaluations/{id}} returns them; {@code queryNdcg} is empty in a list. */
    public record CandidateScores(String label, double ndcg10, double recall, double mrr10, int failedQueries, Map<String, Double> queryNdcg) {

        public static CandidateScores of(JsonNode candidate) {
            Map<String, Double> perQuery = new LinkedHashMap<>();
            candidate.path("queries").forEach(q -> perQuery.put(q.path("queryId").asText(), q.path("ndcg10").asDouble()));
            return new CandidateScores(candidate.path("label").asText(), candidate.path("ndcg10").asDouble(), candidate.path("recall").asDouble(),
                    candidate.path("mrr10").asDouble(), candidate.path("failedQueries").asInt(), perQuery);
        }

        public static List<CandidateScores> allOf(JsonNode evaluation) {
            List<CandidateScores> all = new ArrayList<>();
            evaluation.path("candidates").forEach(c -> all.add(of(c)));
            return all;
        }
    }

    /** A query whose nDCG@10 fell. */
    public record Worse(String queryId, double before, double after) {}

    /**
     * One candidate of the current run.
     *
     * @param previous the same label's numbers in the previous run, or null when it had no such candidate
     * @param worse    queries whose nDCG@10 fell, largest fall first (only when regressed and per-query scores are known)
     */
    public record Row(CandidateScores current, CandidateScores previous, boolean regressed, List<Worse> worse) {
        public Double ndcgChange() {
            return previous == null ? null : current.ndcg10() - previous.ndcg10();
        }
    }

    private final List<Row> rows;

    private RunComparison(List<Row> rows) {
        this.rows = List.copyOf(rows);
    }

    /** {@code previous} empty: nothing to compare with (every row's previous is null). */
    public static RunComparison of(List<CandidateScores> current, List<CandidateScores> previous, double maxDrop) {
        Map<String, CandidateScores> before = new LinkedHashMap<>();
        previous.forEach(p -> before.putIfAbsent(p.label(), p));
        List<Row> rows = new ArrayList<>();
        for (CandidateScores now : current) {
            CandidateScores then = before.get(now.label());
            // rounded as the table prints them: a fall the table shows as 0.0100 with maxDrop 0.01 is not a regression
            boolean regressed = then != null && round(then.ndcg10() - now.ndcg10()) > maxDrop;
            List<Worse> worse = new ArrayList<>();
            if (regressed) {
                now.queryNdcg().forEach((query, after) -> {
                    Double was = then.queryNdcg().get(query);
                    if (was != null && after < was) {
                        worse.add(new Worse(query, was, after));
                    }
                });
                worse.sort(Comparator.comparingDouble((Worse w) -> w.after() - w.before()).thenComparing(Worse::queryId));
            }
            rows.add(new Row(now, then, regressed, worse.size() > WORSE_QUERIES_SHOWN ? worse.subList(0, WORSE_QUERIES_SHOWN) : worse));
        }
        return new RunComparison(rows);
    }

    public List<Row> rows() {
        return rows;
    }

    public boolean regressed() {
        return rows.stream().anyMatch(Row::regressed);
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
