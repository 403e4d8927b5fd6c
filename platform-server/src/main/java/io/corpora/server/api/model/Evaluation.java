package io.corpora.server.api.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.retrieval.evaluation.Candidate;
import io.corpora.retrieval.evaluation.EvaluationResult;
import io.corpora.retrieval.evaluation.RunComparison;
import io.corpora.server.persistence.JpaEvaluations;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * One retrieval-quality evaluation of a tenant: who ran it as which actor, its progress, and once it succeeded every
 * candidate's metrics, per-query scores and configuration fingerprint, and the recommended candidate. In a list the
 * per-query scores are left out. {@code appliedAt} is set only by {@code :apply}.
 */
@Schema(name = "Evaluation")
@JsonbPropertyOrder({"id", "status", "created", "finished", "createdBy", "actor", "judgedSet", "recallAt", "progress", "candidates",
        "recommended", "recommendation", "regression", "error", "appliedAt", "appliedBy"})
public record Evaluation(@Schema String id, @Schema(description = "QUEUED, RUNNING, SUCCEEDED or FAILED") String status,
                         @Schema String created, @Schema(description = "when it succeeded or failed") String finished,
                         @Schema(description = "the tenant-admin who started it") String createdBy,
                         @Schema Actor actor, @Schema JudgedSetSummary judgedSet, @Schema(description = "the k of Recall@k") int recallAt,
                         @Schema Progress progress,
                         @Schema(description = "per candidate, in request order; the results once SUCCEEDED") List<CandidateResult> candidates,
                         @Schema(description = "index into candidates of the best nDCG@10 (the earliest on a tie)") Integer recommended,
                         @Schema(description = "the recommended candidate's label") String recommendation,
                         @Schema(description = "a candidate's nDCG@10 fell by more than maxDrop against the previous comparable run")
                         boolean regression,
                         @Schema(description = "why it FAILED") String error,
                         @Schema(description = "when :apply applied the recommendation; null: the tenant's configuration is unchanged") String appliedAt,
                         @Schema String appliedBy) {

    private static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);
    private static final TypeReference<List<CandidateResult>> RESULTS = new TypeReference<>() {};
    private static final TypeReference<List<CandidateSpec>> SPECS = new TypeReference<>() {};

    /** The actor the evaluation retrieved as. */
    @Schema(name = "EvaluationActorUsed")
    @JsonbPropertyOrder({"subject", "groups", "partition"})
    public record Actor(@Schema String subject, @Schema List<String> groups, @Schema(description = "null: the default partition") String partition) {}

    @Schema(name = "EvaluationJudgedSet")
    @JsonbPropertyOrder({"queries", "judgements"})
    public record JudgedSetSummary(@Schema(description = "judged queries (with at least one judgement)") int queries,
                                   @Schema(description = "graded judgements over them") int judgements) {}

    @Schema(name = "EvaluationProgress")
    @JsonbPropertyOrder({"done", "total", "percent"})
    public record Progress(@Schema(description = "query retrievals done (all candidates)") int done, @Schema int total, @Schema int percent) {}

    /** A hybrid fusion as stored and shown. */
    @Schema(name = "EvaluationFusionUsed")
    @JsonbPropertyOrder({"method", "k", "vectorWeight", "keywordWeight", "alpha", "normalization"})
    public record Fusion(@Schema String method, @Schema double k, @Schema double vectorWeight, @Schema double keywordWeight, @Schema double alpha,
                         @Schema String normalization) {
        public static Fusion of(FusionSpec f) {
            return f == null ? null : new Fusion(f.method(), f.k(), f.vectorWeight(), f.keywordWeight(), f.alpha(), f.normalization());
        }

        public FusionSpec spec() {
            return new FusionSpec(method, k, vectorWeight, keywordWeight, alpha, normalization);
        }
    }

    /** A candidate as requested (stored before the run). */
    @Schema(name = "EvaluationCandidateSpec")
    @JsonbPropertyOrder({"mode", "fusion", "label"})
    public record CandidateSpec(@Schema String mode, @Schema(description = "hybrid only") Fusion fusion, @Schema String label) {
        public static CandidateSpec of(Candidate c) {
            return new CandidateSpec(c.mode(), Fusion.of(c.fusion()), c.describe());
        }

        public Candidate candidate() {
            return new Candidate(mode, fusion == null ? null : fusion.spec());
        }
    }

    /** What produced a candidate's numbers: mode, fusion, the tenant's active embedder fingerprint and its store provider. */
    @Schema(name = "EvaluationFingerprint")
    @JsonbPropertyOrder({"mode", "fusion", "embedder", "store"})
    public record Fingerprint(@Schema String mode, @Schema(description = "the fusion label, hybrid only") String fusion,
                              @Schema(description = "the active embedder fingerprint") String embedder, @Schema(description = "store provider") String store) {}

    @Schema(name = "EvaluationQueryScore")
    @JsonbPropertyOrder({"queryId", "ndcg10", "recall", "mrr10", "error"})
    public record QueryScore(@Schema String queryId, @Schema double ndcg10, @Schema(description = "Recall@recallAt") double recall,
                             @Schema double mrr10, @Schema(description = "why this query failed (then scored 0); null otherwise") String error) {}

    @Schema(name = "EvaluationWorseQuery")
    @JsonbPropertyOrder({"queryId", "before", "after"})
    public record WorseQuery(@Schema String queryId, @Schema(description = "nDCG@10 in the previous run") double before,
                             @Schema(description = "nDCG@10 in this run") double after) {}

    /** A candidate against the same candidate of the previous comparable run ({@link RunComparison}). */
    @Schema(name = "EvaluationComparison")
    @JsonbPropertyOrder({"previous", "ndcg10Delta", "recallDelta", "mrr10Delta", "maxDrop", "regression", "worse"})
    public record Comparison(@Schema(description = "the previous comparable run: same judged set, recallAt and actor") String previous,
                             @Schema(description = "nDCG@10 now minus before") double ndcg10Delta,
                             @Schema(description = "Recall@recallAt now minus before") double recallDelta,
                             @Schema(description = "MRR@10 now minus before") double mrr10Delta,
                             @Schema(description = "the nDCG@10 fall that is a regression (the request's maxDrop, default 0.01)") double maxDrop,
                             @Schema(description = "nDCG@10 fell by more than maxDrop (rounded to 4 decimals)") boolean regression,
                             @Schema(description = "up to 10 queries whose nDCG@10 fell, largest fall first") List<WorseQuery> worse) {
        public static Comparison of(RunComparison.Change c) {
            return c == null ? null : new Comparison(c.previousRun(), c.ndcg10Delta(), c.recallDelta(), c.mrr10Delta(), c.maxDrop(), c.regression(),
                    c.worse().stream().map(w -> new WorseQuery(w.queryId(), w.before(), w.after())).toList());
        }
    }

    @Schema(name = "EvaluationCandidateResult")
    @JsonbPropertyOrder({"mode", "fusion", "label", "ndcg10", "recall", "mrr10", "failedQueries", "fingerprint", "comparison", "queries"})
    public record CandidateResult(@Schema String mode, @Schema Fusion fusion, @Schema String label, @Schema(description = "mean nDCG@10") double ndcg10,
                                  @Schema(description = "mean Recall@recallAt") double recall, @Schema(description = "mean MRR@10") double mrr10,
                                  @Schema int failedQueries, @Schema Fingerprint fingerprint,
                                  @Schema(description = "against the previous comparable run; null when there is none or it had no such candidate")
                                  Comparison comparison,
                                  @Schema(description = "per judged query; left out in lists") List<QueryScore> queries) {

        public static CandidateResult of(EvaluationResult.CandidateResult r, String embedder, String store) {
            Candidate c = r.candidate();
            return new CandidateResult(c.mode(), Fusion.of(c.fusion()), c.describe(), r.ndcg10(), r.recall(), r.mrr10(), r.failedQueries(),
                    new Fingerprint(c.mode(), c.fusion() == null ? null : c.fusion().describe(), embedder, store), null,
                    r.queries().stream().map(q -> new QueryScore(q.queryId(), q.ndcg10(), q.recall(), q.mrr10(), q.error())).toList());
        }

        /** This candidate's scores as {@link RunComparison} compares them. */
        public RunComparison.Scores scores() {
            Map<String, Double> perQuery = new HashMap<>();
            if (queries != null) {
                queries.forEach(q -> perQuery.put(q.queryId(), q.ndcg10()));
            }
            return new RunComparison.Scores(label, ndcg10, recall, mrr10, perQuery);
        }

        public CandidateResult withComparison(Comparison c) {
            return new CandidateResult(mode, fusion, label, ndcg10, recall, mrr10, failedQueries, fingerprint, c, queries);
        }

        CandidateResult withoutQueries() {
            return new CandidateResult(mode, fusion, label, ndcg10, recall, mrr10, failedQueries, fingerprint, comparison, null);
        }
    }

    /**
     * {@code results} with each candidate compared against {@code previous} (the previous comparable run's stored
     * results; null: none), flagging a fall of nDCG@10 beyond {@code maxDrop}.
     */
    public static List<CandidateResult> compared(List<CandidateResult> results, String previousId, List<CandidateResult> previous, double maxDrop) {
        List<RunComparison.Change> changes = RunComparison.compare(results.stream().map(CandidateResult::scores).toList(), previousId,
                previous == null ? List.of() : previous.stream().map(CandidateResult::scores).toList(), maxDrop);
        List<CandidateResult> out = new ArrayList<>();
        for (int i = 0; i < results.size(); i++) {
            out.add(results.get(i).withComparison(Comparison.of(changes.get(i))));
        }
        return List.copyOf(out);
    }

    /** The stored row as served; {@code detailed} keeps per-query scores. */
    public static Evaluation of(JpaEvaluations.Row row, boolean detailed) {
        List<CandidateResult> results = row.resultsJson() == null ? null : read(row.resultsJson(), RESULTS);
        if (results != null && !detailed) {
            results = results.stream().map(CandidateResult::withoutQueries).toList();
        }
        String recommendation = results == null || row.recommended() == null ? null : results.get(row.recommended()).label();
        int percent = row.total() == 0 ? 100 : (int) (100L * row.done() / row.total());
        return new Evaluation(row.id(), row.status().name(), String.valueOf(row.created()), str(row.finished()), row.createdBy(),
                new Actor(row.actorSubject(), row.actorGroups(), row.actorPartition()), new JudgedSetSummary(row.queries(), row.judgements()),
                row.recallAt(), new Progress(row.done(), row.total(), percent), results, row.recommended(), recommendation,
                results != null && results.stream().anyMatch(r -> r.comparison() != null && r.comparison().regression()), row.error(),
                str(row.appliedAt()), row.appliedBy());
    }

    /** The stored results of a succeeded evaluation (with per-query scores). */
    public static List<CandidateResult> results(JpaEvaluations.Row row) {
        return read(row.resultsJson(), RESULTS);
    }

    /** The candidates a stored evaluation was started with. */
    public static List<CandidateSpec> candidates(JpaEvaluations.Row row) {
        return read(row.candidatesJson(), SPECS);
    }

    private static String str(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    private static <T> T read(String json, TypeReference<T> type) {
        try {
            return JSON.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("corrupt evaluation JSON: " + e.getOriginalMessage(), e);
        }
    }

}
