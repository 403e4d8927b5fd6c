package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The body of an evaluation: the judged set (query id → text, and graded judgements as a map or as BEIR/TREC qrels
 * text; exactly one of the two), and optionally the candidates to compare, the actor to retrieve as, the k of Recall@k
 * and the nDCG@10 fall flagged as a regression. Null fields take the server's defaults.
 *
 * @param qrels      query id → document id → grade (0..100, above 0 relevant)
 * @param qrelsTsv   the judgements as BEIR TSV ({@code query-id corpus-id score}) or TREC ({@code query-id 0 doc-id relevance}) text
 * @param candidates 1..16 configurations; null: the tenant's current one, then vector, keyword and hybrid variants
 * @param actor      who the evaluation retrieves as; null: the caller
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvaluationRequest(Map<String, String> queries, Map<String, Map<String, Integer>> qrels, String qrelsTsv,
                                List<EvaluationCandidateRequest> candidates, EvaluationActor actor, Integer recallAt, Double maxDrop) {

    public EvaluationRequest {
        Objects.requireNonNull(queries, "queries");
    }

    /** Queries judged by a map of query id → document id → grade. */
    public static EvaluationRequest of(Map<String, String> queries, Map<String, Map<String, Integer>> qrels) {
        return new EvaluationRequest(queries, Objects.requireNonNull(qrels, "qrels"), null, null, null, null, null);
    }

    /** Queries judged by BEIR or TREC qrels text. */
    public static EvaluationRequest ofQrelsText(Map<String, String> queries, String qrelsTsv) {
        return new EvaluationRequest(queries, null, Objects.requireNonNull(qrelsTsv, "qrelsTsv"), null, null, null, null);
    }

    public EvaluationRequest withCandidates(List<EvaluationCandidateRequest> c) {
        return new EvaluationRequest(queries, qrels, qrelsTsv, c, actor, recallAt, maxDrop);
    }

    public EvaluationRequest withActor(EvaluationActor a) {
        return new EvaluationRequest(queries, qrels, qrelsTsv, candidates, a, recallAt, maxDrop);
    }

    public EvaluationRequest withRecallAt(int k) {
        return new EvaluationRequest(queries, qrels, qrelsTsv, candidates, actor, k, maxDrop);
    }

    public EvaluationRequest withMaxDrop(double drop) {
        return new EvaluationRequest(queries, qrels, qrelsTsv, candidates, actor, recallAt, drop);
    }
}
