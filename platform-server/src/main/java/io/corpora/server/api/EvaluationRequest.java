package io.corpora.server.api;

import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/tenants/{tenant}/evaluations}: a judged set (queries and graded judgements, as a
 * JSON object or as BEIR/TREC qrels text), the candidate configurations to compare and the actor to run as.
 */
@Schema(name = "EvaluationRequest")
public class EvaluationRequest {
    @Schema(description = "Query id → query text; at most 2,000 judged queries", required = true)
    public Map<String, String> queries;
    @Schema(description = "Query id → document id → grade (0..100, > 0 relevant); give this or qrelsTsv")
    public Map<String, Map<String, Integer>> qrels;
    @Schema(description = "Qrels as BEIR TSV (query-id corpus-id score, optional header) or TREC (query-id 0 doc-id relevance) text")
    public String qrelsTsv;
    @Schema(description = "1..16 configurations to compare; absent: the tenant's current one first, then vector, keyword, hybrid RRF"
            + " and convex min-max fusion at alpha 0.2, 0.4, 0.6, 0.8")
    public List<CandidateBody> candidates;
    @Schema(description = "Who the evaluation retrieves as; absent: the caller's own groups and partition")
    public ActorBody actor;
    @Schema(description = "The k of Recall@k, 1..100 (default 100)")
    public Integer recallAt;
    @Schema(description = "The nDCG@10 fall against the previous comparable run flagged as a regression, 0..1; default 0.01")
    public Double maxDrop;

    /** One candidate configuration. */
    @Schema(name = "EvaluationCandidateRequest")
    public static class CandidateBody {
        @Schema(description = "vector | keyword | hybrid", required = true)
        public String mode;
        @Schema(description = "hybrid only; absent: the standard fusion, convex z-score with alpha 0.6")
        public FusionBody fusion;
    }

    /** A hybrid fusion; absent fields take the standard's values (convex, alpha 0.6, zscore; for RRF k = 60, weights 1). */
    @Schema(name = "EvaluationFusion")
    public static class FusionBody {
        @Schema(description = "rrf | convex")
        public String method;
        @Schema(description = "RRF k, (0, 10000]")
        public Double k;
        @Schema(description = "RRF weight of the vector leg, 0..10")
        public Double vectorWeight;
        @Schema(description = "RRF weight of the keyword leg, 0..10")
        public Double keywordWeight;
        @Schema(description = "convex weight of the vector leg, 0..1")
        public Double alpha;
        @Schema(description = "convex score normalisation: minmax | zscore")
        public String normalization;
    }

    /** The actor an evaluation retrieves as: its ACL groups (the tenant's filter hook decides on them) and partition. */
    @Schema(name = "EvaluationActor")
    public static class ActorBody {
        @Schema(description = "ACL groups; absent: the caller's")
        public List<String> groups;
        @Schema(description = "Partition; a partition-bound token cannot leave its own")
        public String partition;
    }
}
