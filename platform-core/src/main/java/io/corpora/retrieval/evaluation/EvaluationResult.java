package io.corpora.retrieval.evaluation;

import java.util.List;

/**
 * The outcome of one evaluation: every candidate's averages and per-query scores, and the recommended candidate
 * (best nDCG@10; the earliest on a tie). A failed query scored zero and is counted.
 */
public record EvaluationResult(List<CandidateResult> candidates, int recallAt, int recommended) {

    /** One query's scores; {@code error} says why it failed (then every score is 0), else null. */
    public record QueryScore(String queryId, double ndcg10, double recall, double mrr10, String error) {}

    /** One candidate's averages over the judged queries. */
    public record CandidateResult(Candidate candidate, double ndcg10, double recall, double mrr10, int failedQueries, List<QueryScore> queries) {

        public CandidateResult {
            queries = List.copyOf(queries);
        }

        static CandidateResult of(Candidate candidate, List<QueryScore> scores) {
            int n = scores.size();
            return new CandidateResult(candidate, scores.stream().mapToDouble(QueryScore::ndcg10).sum() / n,
                    scores.stream().mapToDouble(QueryScore::recall).sum() / n, scores.stream().mapToDouble(QueryScore::mrr10).sum() / n,
                    (int) scores.stream().filter(s -> s.error() != null).count(), scores);
        }
    }

    public EvaluationResult {
        candidates = List.copyOf(candidates);
    }

    static EvaluationResult of(List<CandidateResult> results, int recallAt) {
        int best = 0;
        for (int i = 1; i < results.size(); i++) {
            if (results.get(i).ndcg10() > results.get(best).ndcg10()) {
                best = i;
            }
        }
        return new EvaluationResult(results, recallAt, best);
    }

    public CandidateResult recommendation() {
        return candidates.get(recommended);
    }
}
