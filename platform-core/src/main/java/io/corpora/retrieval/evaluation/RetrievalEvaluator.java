package io.corpora.retrieval.evaluation;

import io.corpora.tenancy.AccessDecision;
import io.corpora.retrieval.RetrievalResponse;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Runs a judged set through a tenant's real retrieval path — its store, embedder, filter hook and partition, as the
 * actor of the given {@link AccessDecision} — once per candidate configuration, and scores each. A judged document
 * the actor may not see is never retrieved, so it counts as not retrieved: the score is the actor's, not the
 * corpus's. Nothing here changes the tenant's configuration; the result only names a recommendation.
 *
 * <p>Each query retrieves {@link RetrieveCommand#MAX_TOP_K} chunks without the tenant's character budget (which
 * would cut the ranking) or score floor; documents rank by their best chunk, and a document whose id equals the
 * query id is skipped (the BEIR convention, as in {@code bin/corpora eval}).
 */
public final class RetrievalEvaluator {

    public static final int NDCG_AT = 10;
    public static final int MRR_AT = 10;
    public static final int MAX_CANDIDATES = 16;

    /** Progress of a running evaluation: queries done over the total (all candidates). */
    @FunctionalInterface
    public interface Progress {
        void update(int done, int total);
    }

    private final RetrievalService service;

    public RetrievalEvaluator(RetrievalService service) {
        this.service = Objects.requireNonNull(service, "service");
    }

    /**
     * @param recallAt the k of Recall@k, 1..100
     * @return one result per candidate in order, the recommendation being the best nDCG@10 (the earliest on a tie,
     *         so list the current configuration first to keep it unless another is strictly better)
     */
    public EvaluationResult evaluate(AccessDecision access, TenantRuntime runtime, JudgedSet set, List<Candidate> candidates, int recallAt,
                                     Progress progress) {
        if (candidates.isEmpty() || candidates.size() > MAX_CANDIDATES) {
            throw new IllegalArgumentException("an evaluation measures 1.." + MAX_CANDIDATES + " candidates, got " + candidates.size());
        }
        if (recallAt < 1 || recallAt > RetrieveCommand.MAX_TOP_K) {
            throw new IllegalArgumentException("recallAt must be 1.." + RetrieveCommand.MAX_TOP_K + ", got " + recallAt);
        }
        int total = set.queries().size() * candidates.size();
        int done = 0;
        List<EvaluationResult.CandidateResult> results = new ArrayList<>();
        for (Candidate candidate : candidates) {
            List<EvaluationResult.QueryScore> scores = new ArrayList<>();
            for (JudgedSet.JudgedQuery query : set.queries()) {
                scores.add(score(access, runtime, candidate, query, recallAt));
                if (progress != null) {
                    progress.update(++done, total);
                }
            }
            results.add(EvaluationResult.CandidateResult.of(candidate, scores));
        }
        return EvaluationResult.of(results, recallAt);
    }

    private EvaluationResult.QueryScore score(AccessDecision access, TenantRuntime runtime, Candidate candidate, JudgedSet.JudgedQuery query,
                                              int recallAt) {
        List<String> ranking;
        String error = null;
        try {
            ranking = rank(access, runtime, candidate, query);
        } catch (RuntimeException e) {
            // one failing query does not fail the evaluation: it scores zero and says why
            ranking = List.of();
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        return new EvaluationResult.QueryScore(query.id(), RetrievalMetrics.ndcg(ranking, query.grades(), NDCG_AT),
                RetrievalMetrics.recall(ranking, query.grades(), recallAt), RetrievalMetrics.reciprocalRank(ranking, query.grades(), MRR_AT),
                error);
    }

    List<String> rank(AccessDecision access, TenantRuntime runtime, Candidate candidate, JudgedSet.JudgedQuery query) {
        RetrieveCommand command = new RetrieveCommand(query.text(), candidate.mode(), RetrieveCommand.MAX_TOP_K, null, null,
                Integer.MAX_VALUE, false, 0, null);
        RetrievalResponse response = service.retrieve(access, runtime, command, candidate.fusion());
        Set<String> documents = new LinkedHashSet<>();
        for (RetrievalResponse.CitedPassage p : response.passages()) {
            String document = p.citation().documentId();
            if (!document.equals(query.id())) {
                documents.add(document);
            }
        }
        return new ArrayList<>(documents);
    }
}
