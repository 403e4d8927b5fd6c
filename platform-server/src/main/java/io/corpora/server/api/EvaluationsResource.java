package io.corpora.server.api;

import io.corpora.access.TenantView;
import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.Tenant;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.retrieval.evaluation.Candidate;
import io.corpora.retrieval.evaluation.JudgedSet;
import io.corpora.retrieval.evaluation.RetrievalEvaluator;
import io.corpora.server.Roles;
import io.corpora.server.api.model.Evaluation;
import io.corpora.server.cluster.LeaseKeeper;
import io.corpora.server.api.model.EvaluationList;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.dataplane.EvaluationRunner;
import io.corpora.server.persistence.JpaEvaluations;
import io.corpora.server.rest.ProblemException;
import io.corpora.server.security.CallerScope;
import io.corpora.server.tenants.TenantLifecycle;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * A tenant's retrieval-quality evaluations (tenant-admin): a judged set run through the tenant's real retrieval path
 * as a chosen actor, once per candidate configuration, as a background job; its history; and the one call that
 * applies a recommendation. Nothing else changes the tenant's configuration.
 */
@Path("/api/v1/tenants/{tenant}/evaluations")
@RequestScoped
@Tag(name = "evaluation")
@SecurityRequirement(name = "jwt")
@RolesAllowed(Roles.TENANT_ADMIN)
public class EvaluationsResource {

    static final int MAX_PAGE = 100;
    /** Convex weights the default candidate list compares. */
    static final double[] DEFAULT_ALPHAS = {0.2, 0.4, 0.6, 0.8};

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @Inject
    JpaEvaluations evaluations;

    @Inject
    EvaluationRunner runner;

    @Inject
    TenantLifecycle lifecycle;

    @Inject
    AuditLog audit;

    @Inject
    LeaseKeeper leaseKeeper;

    @jakarta.ws.rs.core.Context
    UriInfo uri;

    @POST
    @EvaluationBody
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Evaluate retrieval quality on a judged set, comparing candidate configurations; runs in the background",
            description = "202 with the QUEUED evaluation; poll GET …/evaluations/{id}. Runs the tenant's real retrieval path (store, embedder,"
                    + " filter hook, partition) as the given actor: a judged document that actor may not see counts as not retrieved."
                    + " Bounds: at most 2,000 judged queries, 200,000 judgements, 16 candidates, one running evaluation per tenant (409),"
                    + " a body over corpora.evaluation.maxJsonBytes (16 MiB) is 413. The recommendation is never applied by this call. Once it"
                    + " SUCCEEDED each candidate carries its comparison with the previous comparable run (same judged set, recallAt and"
                    + " actor): deltas, up to 10 worsened queries, and regression when nDCG@10 fell by more than maxDrop (default 0.01).")
    @APIResponse(responseCode = "202", description = "Queued; Location is the evaluation to poll",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Evaluation.class)))
    public Response create(@PathParam("tenant") String tenantId, EvaluationRequest request) {
        String admin = caller.actorFor(tenantId, Roles.TENANT_ADMIN).subject();
        if (request == null || request.queries == null || request.queries.isEmpty()) {
            throw invalid(400, "a JSON body with a non-empty 'queries' object (query id → text) is required");
        }
        if (request.queries.size() > JudgedSet.MAX_QUERIES) {
            throw invalid(400, "'queries' holds " + request.queries.size() + " queries; at most " + JudgedSet.MAX_QUERIES);
        }
        if ((request.qrels == null) == (request.qrelsTsv == null)) {
            throw invalid(400, "give exactly one of 'qrels' (query id → document id → grade) and 'qrelsTsv' (BEIR/TREC text)");
        }
        int recallAt = request.recallAt == null ? RetrieveCommand.MAX_TOP_K : request.recallAt;
        if (request.maxDrop != null && !(request.maxDrop >= 0 && request.maxDrop <= 1)) {
            throw invalid(400, "maxDrop (the nDCG@10 fall flagged as a regression) must be between 0 and 1, got " + request.maxDrop);
        }
        if (recallAt < 1 || recallAt > RetrieveCommand.MAX_TOP_K) {
            throw invalid(400, "recallAt must be between 1 and " + RetrieveCommand.MAX_TOP_K + ", got " + recallAt);
        }
        for (Map.Entry<String, String> q : request.queries.entrySet()) {
            if (q.getValue() == null || q.getValue().isBlank()) {
                throw invalid(422, "query '" + q.getKey() + "' has no text");
            }
            if (q.getValue().length() > dataPlane.retrieveLimits().maxQueryChars()) {
                throw invalid(422, "query '" + q.getKey() + "' has " + q.getValue().length() + " characters; a retrieve query has at most "
                        + dataPlane.retrieveLimits().maxQueryChars());
            }
        }
        JudgedSet set;
        try {
            set = request.qrels != null ? JudgedSet.of(request.queries, request.qrels) : JudgedSet.of(request.queries, request.qrelsTsv);
        } catch (IllegalArgumentException e) {
            throw invalid(422, e.getMessage());
        }
        Set<String> groups = request.actor == null || request.actor.groups == null ? null : new LinkedHashSet<>(request.actor.groups);
        if (groups != null && groups.stream().anyMatch(g -> g == null || g.isBlank())) {
            throw invalid(400, "actor.groups must be non-blank strings");
        }
        TenantView view = dataPlane.evaluationView(caller, tenantId, request.actor == null ? null : request.actor.partition, groups, Roles.TENANT_ADMIN);
        List<Candidate> candidates = candidates(request.candidates, view.tenant().definition().retrieval());
        // This tenant's evaluation left by a server that stopped is closed here at once, not only by the next lease sweep
        // (only this tenant's: another tenant's request neither waits on nor fails for them).
        evaluations.failOrphaned(leaseKeeper.self(), System.currentTimeMillis(), tenantId);
        if (!evaluations.running(tenantId).isEmpty()) {
            throw new ProblemException(409, "evaluation-running", "Evaluation running",
                    "evaluation '" + evaluations.running(tenantId).get(0) + "' of this tenant is still running; one runs at a time");
        }
        int judgements = set.queries().stream().mapToInt(q -> q.grades().size()).sum();
        JpaEvaluations.Row row = evaluations.create(new JpaEvaluations.NewEvaluation(tenantId, admin, view.access().actor().subject(),
                view.access().actor().groups(), view.namespace().partitionKey(), set.queries().size(), judgements, recallAt,
                candidates.stream().map(Evaluation.CandidateSpec::of).toList(), set.queries().size() * candidates.size(), set.fingerprint(),
                request.maxDrop));
        runner.start(row.id(), view, set, candidates, recallAt);
        return Response.accepted(Evaluation.of(row, false)).location(uri.getAbsolutePathBuilder().path(row.id()).build()).build();
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The tenant's evaluations, newest first, without per-query scores")
    public EvaluationList list(@PathParam("tenant") String tenantId, @QueryParam("offset") @DefaultValue("0") int offset,
                               @QueryParam("limit") @DefaultValue("20") int limit) {
        caller.actorFor(tenantId, Roles.TENANT_ADMIN);
        if (limit < 1 || limit > MAX_PAGE || offset < 0) {
            throw invalid(400, "limit must be between 1 and " + MAX_PAGE + " and offset ≥ 0");
        }
        List<JpaEvaluations.Row> rows = evaluations.list(tenantId, offset, limit + 1);
        boolean more = rows.size() > limit;
        return new EvaluationList(rows.stream().limit(limit).map(r -> Evaluation.of(r, false)).toList(), more ? offset + limit : null);
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "One evaluation: progress, and once SUCCEEDED every candidate's metrics, per-query scores and fingerprint")
    public Evaluation get(@PathParam("tenant") String tenantId, @PathParam("id") String id) {
        caller.actorFor(tenantId, Roles.TENANT_ADMIN);
        return Evaluation.of(find(tenantId, id), true);
    }

    @POST
    @Path("{id}:apply")
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Apply the evaluation's recommended mode and fusion to the tenant's retrieval configuration (audited)",
            description = "409 unless the evaluation SUCCEEDED and was not applied yet. Changes retrieval.mode and, for hybrid,"
                    + " retrieval.fusion; every other setting is kept.")
    public Evaluation apply(@PathParam("tenant") String tenantId, @PathParam("id") String id) {
        String admin = caller.actorFor(tenantId, Roles.TENANT_ADMIN).subject();
        JpaEvaluations.Row row = find(tenantId, id);
        if (row.status() != JpaEvaluations.Status.SUCCEEDED || row.appliedAt() != null) {
            throw new ProblemException(409, "evaluation-not-applicable", "Evaluation not applicable", row.appliedAt() != null
                    ? "evaluation '" + id + "' was applied at " + row.appliedAt() + " by " + row.appliedBy()
                    : "evaluation '" + id + "' is " + row.status() + "; only a SUCCEEDED evaluation can be applied");
        }
        Evaluation.CandidateResult best = Evaluation.results(row).get(row.recommended());
        Tenant tenant = dataPlane.activeTenant(tenantId);
        RetrievalDefaults current = tenant.definition().retrieval();
        FusionSpec fusion = best.fusion() == null ? current.fusion() : best.fusion().spec();
        RetrievalDefaults next = new RetrievalDefaults(best.mode(), current.topK(), current.minScore(), current.maxChars(), current.rerank(), fusion);
        lifecycle.update(admin, tenant.definition().withRetrieval(next), true);
        JpaEvaluations.Row applied = evaluations.markApplied(tenantId, id, admin).orElseThrow(() -> new ProblemException(409,
                "evaluation-not-applicable", "Evaluation not applicable", "evaluation '" + id + "' was applied concurrently"));
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("evaluation", id);
        details.put("candidate", best.label());
        details.put("ndcg10", best.ndcg10());
        details.put("previousMode", current.mode());
        details.put("previousFusion", current.fusion().describe());
        audit.append(new AuditEvent(null, admin, tenantId, "evaluation.apply", id, "success", details));
        return Evaluation.of(applied, true);
    }

    /** The requested candidates, or the default comparison with the tenant's current configuration first (kept on a tie). */
    static List<Candidate> candidates(List<EvaluationRequest.CandidateBody> requested, RetrievalDefaults current) {
        List<Candidate> out = new ArrayList<>();
        try {
            if (requested == null) {
                out.add(new Candidate(current.mode(), current.fusion()));
                out.add(new Candidate("vector", null));
                out.add(new Candidate("keyword", null));
                out.add(new Candidate("hybrid", FusionSpec.STANDARD));
                out.add(new Candidate("hybrid", FusionSpec.rrf(io.corpora.spi.RankFusion.DEFAULT_K, 1, 1)));
                for (double alpha : DEFAULT_ALPHAS) {
                    out.add(new Candidate("hybrid", FusionSpec.convex("minmax", alpha)));
                }
                Map<String, Candidate> distinct = new LinkedHashMap<>();
                out.forEach(c -> distinct.putIfAbsent(c.describe(), c));
                return List.copyOf(distinct.values());
            }
            if (requested.isEmpty() || requested.size() > RetrievalEvaluator.MAX_CANDIDATES) {
                throw new IllegalArgumentException("candidates must hold 1.." + RetrievalEvaluator.MAX_CANDIDATES + " configurations, got " + requested.size());
            }
            for (int i = 0; i < requested.size(); i++) {
                EvaluationRequest.CandidateBody c = requested.get(i);
                if (c == null || c.mode == null) {
                    throw new IllegalArgumentException("candidates[" + i + "] needs a mode (vector, keyword or hybrid)");
                }
                if (c.fusion != null && !"hybrid".equalsIgnoreCase(c.mode)) {
                    throw new IllegalArgumentException("candidates[" + i + "]: fusion applies to mode hybrid only");
                }
                out.add(new Candidate(c.mode, fusion(c.fusion)));
            }
            return out;
        } catch (IllegalArgumentException | NullPointerException e) {
            throw invalid(422, e.getMessage());
        }
    }

    private static FusionSpec fusion(EvaluationRequest.FusionBody f) {
        if (f == null) {
            return null;
        }
        FusionSpec s = FusionSpec.STANDARD;
        return new FusionSpec(f.method == null ? s.method() : f.method, f.k == null ? s.k() : f.k,
                f.vectorWeight == null ? s.vectorWeight() : f.vectorWeight, f.keywordWeight == null ? s.keywordWeight() : f.keywordWeight,
                f.alpha == null ? s.alpha() : f.alpha, f.normalization == null ? s.normalization() : f.normalization);
    }

    private JpaEvaluations.Row find(String tenantId, String id) {
        return evaluations.find(tenantId, id).orElseThrow(() -> new ProblemException(404, "evaluation-not-found", "Evaluation not found",
                "no evaluation '" + id + "' for this tenant"));
    }

    private static ProblemException invalid(int status, String detail) {
        return new ProblemException(status, status == 422 ? "invalid-judged-set" : "invalid-request",
                status == 422 ? "Invalid evaluation" : "Invalid request", detail);
    }
}
