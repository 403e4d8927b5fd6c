package io.corpora.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaProblemException;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.Evaluation;
import io.corpora.client.model.EvaluationCandidateRequest;
import io.corpora.client.model.EvaluationCandidateResult;
import io.corpora.client.model.EvaluationList;
import io.corpora.client.model.EvaluationRequest;
import io.corpora.client.model.IndexReport;
import io.corpora.client.model.Job;
import io.corpora.client.model.RetrievalResult;
import io.corpora.client.model.RetrieveRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The client's index and evaluation routes against a running Corpora: verify and rebuild (a job {@code awaitJob} waits
 * for), and an evaluation created from judged queries, read back, listed and applied, with the server's refusals.
 */
class IndexAndEvaluationClientIT {

    /** Three documents on distinct topics, and a judged query for each. */
    private static final Map<String, String> DOCUMENTS = Map.of(
            "keys.md", "# Key rotation\n\nRotate the signing keys every ninety days with the rotate-keys command.",
            "invoices.md", "# Invoices\n\nInvoices are payable within thirty days; late invoices accrue interest.",
            "shipping.md", "# Shipping\n\nParcels ship with the regional carrier and arrive within five working days.");
    private static final Map<String, String> QUERIES = Map.of(
            "q-keys", "how often are signing keys rotated",
            "q-invoices", "when are invoices payable",
            "q-shipping", "which carrier ships parcels");
    private static final Map<String, Map<String, Integer>> QRELS = Map.of(
            "q-keys", Map.of("keys.md", 2),
            "q-invoices", Map.of("invoices.md", 2),
            "q-shipping", Map.of("shipping.md", 2));

    private static RunningCorpora corpora;

    @BeforeAll
    static void server() throws Exception {
        corpora = RunningCorpora.get();
    }

    /** A new tenant holding {@link #DOCUMENTS}, ingested by a writer. */
    private static String tenantWithDocuments(String prefix) throws Exception {
        String tenant = corpora.createTenant(prefix, Map.of());
        CorporaClient writer = corpora.client(tenant, "writer");
        Job ingest = writer.ingestBatch(DOCUMENTS.entrySet().stream()
                .map(d -> DocumentInput.text(d.getKey(), d.getValue()).withFormat("markdown")).toList());
        assertEquals("SUCCEEDED", writer.awaitJob(ingest.id(), Duration.ofMinutes(2)).status());
        return tenant;
    }

    @Test
    void verifyReportsTheConsistentIndexAndRebuildIsAJobAfterWhichRetrievalStillFindsTheDocuments() throws Exception {
        String tenant = tenantWithDocuments("index");
        CorporaClient writer = corpora.client(tenant, "writer");
        CorporaClient admin = corpora.client(tenant, "tenant-admin");

        IndexReport before = writer.verifyIndex(null);
        assertTrue(before.consistent(), before.toString());
        assertEquals(DOCUMENTS.size(), before.documents());
        assertTrue(before.chunks() >= DOCUMENTS.size(), before.toString());
        assertNotNull(before.namespace());
        assertEquals(0, before.missing().count());
        assertEquals(List.of(), before.orphaned().chunkIds());

        Job accepted = admin.rebuildIndex(null);
        // Not kind "rebuild": the server has no such job kind yet and reports its rebuild jobs as "ingest".
        assertEquals(DOCUMENTS.size(), accepted.total(), accepted.toString());
        assertTrue(admin.jobs(20).jobs().stream().anyMatch(j -> j.id().equals(accepted.id())));
        Job done = admin.awaitJob(accepted.id(), Duration.ofMinutes(2));
        assertEquals("SUCCEEDED", done.status(), done.toString());
        assertEquals(DOCUMENTS.keySet(), done.outcomes().stream().map(o -> o.documentId()).collect(Collectors.toSet()));

        IndexReport after = admin.verifyIndex(null);
        assertTrue(after.consistent(), after.toString());
        assertEquals(before.chunks(), after.chunks());
        for (Map.Entry<String, String> judged : QUERIES.entrySet()) {
            RetrievalResult found = writer.retrieve(RetrieveRequest.of(judged.getValue()).withTopK(1));
            String expected = QRELS.get(judged.getKey()).keySet().iterator().next();
            assertEquals(expected, found.passages().get(0).citation().documentId(), found.toString());
        }
    }

    @Test
    void onlyATenantAdminRebuildsAndAReaderMayNotVerify() throws Exception {
        String tenant = corpora.createTenant("index-roles", Map.of());
        assertForbidden(() -> corpora.client(tenant, "reader").rebuildIndex(null));
        assertForbidden(() -> corpora.client(tenant, "writer").rebuildIndex(null));
        assertForbidden(() -> corpora.client(tenant, "reader").verifyIndex(null));
    }

    @Test
    void anEvaluationOfJudgedQueriesIsReadBackListedAndAppliedOnce() throws Exception {
        String tenant = tenantWithDocuments("evaluation");
        CorporaClient admin = corpora.client(tenant, "tenant-admin");
        String modeBefore = corpora.tenant(tenant).path("retrieval").path("mode").asText();
        EvaluationRequest request = EvaluationRequest.of(QUERIES, QRELS)
                .withCandidates(List.of(EvaluationCandidateRequest.of("vector"), EvaluationCandidateRequest.of("keyword")))
                .withRecallAt(10);

        Evaluation queued = admin.evaluate(request);
        assertNotNull(queued.id());
        assertEquals(QUERIES.size(), queued.judgedSet().queries());
        assertEquals(10, queued.recallAt());
        assertNull(queued.appliedAt());

        Evaluation done = admin.awaitEvaluation(queued.id(), Duration.ofMinutes(2));
        assertEquals("SUCCEEDED", done.status(), done.toString());
        assertEquals(List.of("vector", "keyword"), done.candidates().stream().map(EvaluationCandidateResult::mode).toList());
        for (EvaluationCandidateResult candidate : done.candidates()) {
            assertEquals(QUERIES.keySet(), candidate.queries().stream().map(q -> q.queryId()).collect(Collectors.toSet()), candidate.toString());
            assertTrue(candidate.ndcg10() > 0, "every judged document is in the corpus: " + candidate);
            assertNotNull(candidate.fingerprint().embedder());
        }
        EvaluationCandidateResult best = done.candidates().get(done.recommended());
        assertEquals(best.label(), done.recommendation());
        assertTrue(done.candidates().stream().allMatch(c -> c.ndcg10() <= best.ndcg10()), done.candidates().toString());

        EvaluationList listed = admin.evaluations(0, 20);
        Evaluation inList = listed.evaluations().stream().filter(e -> e.id().equals(queued.id())).findFirst().orElseThrow();
        assertEquals("SUCCEEDED", inList.status());
        assertNull(inList.candidates().get(0).queries(), "a list leaves the per-query scores out");

        Evaluation applied = admin.applyEvaluation(queued.id());
        assertNotNull(applied.appliedAt());
        assertEquals(applied.appliedAt(), admin.evaluation(queued.id()).appliedAt());
        String modeAfter = corpora.tenant(tenant).path("retrieval").path("mode").asText();
        assertEquals(best.mode(), modeAfter);
        assertNotEquals(modeBefore, modeAfter, "the tenant started hybrid, and neither candidate is");

        CorporaProblemException again = assertThrows(CorporaProblemException.class, () -> admin.applyEvaluation(queued.id()));
        assertEquals(409, again.status());
        assertEquals("evaluation-not-applicable", again.kind());
        assertTrue(again.detail().contains("applied"), again.detail());
    }

    @Test
    void qrelsTextIsJudgedByTheServerAndNoCandidatesCompareTheCurrentConfigurationFirst() throws Exception {
        String tenant = tenantWithDocuments("evaluation-tsv");
        CorporaClient admin = corpora.client(tenant, "tenant-admin");
        String tsv = "query-id\tcorpus-id\tscore\nq-keys\tkeys.md\t2\nq-invoices\tinvoices.md\t1\nq-invoices\tshipping.md\t0\n";
        Evaluation queued = admin.evaluate(EvaluationRequest.ofQrelsText(Map.of("q-keys", QUERIES.get("q-keys"),
                "q-invoices", QUERIES.get("q-invoices")), tsv));
        assertEquals(2, queued.judgedSet().queries());
        assertEquals(3, queued.judgedSet().judgements());
        Evaluation done = admin.awaitEvaluation(queued.id(), Duration.ofMinutes(2));
        assertEquals("SUCCEEDED", done.status(), done.toString());
        assertTrue(done.candidates().size() > 1, done.candidates().toString());
        assertEquals(corpora.tenant(tenant).path("retrieval").path("mode").asText(), done.candidates().get(0).mode());
    }

    @Test
    void anEvaluationTheServerCannotRunOrFindIsItsProblem() throws Exception {
        String tenant = corpora.createTenant("evaluation-refused", Map.of());
        CorporaClient admin = corpora.client(tenant, "tenant-admin");
        CorporaProblemException empty = assertThrows(CorporaProblemException.class, () -> admin.evaluate(EvaluationRequest.of(Map.of(), QRELS)));
        assertEquals(400, empty.status());
        assertEquals("invalid-request", empty.kind());
        CorporaProblemException badMode = assertThrows(CorporaProblemException.class,
                () -> admin.evaluate(EvaluationRequest.of(QUERIES, QRELS).withCandidates(List.of(EvaluationCandidateRequest.of("telepathy")))));
        assertEquals(422, badMode.status(), badMode.getMessage());
        CorporaProblemException missing = assertThrows(CorporaProblemException.class, () -> admin.evaluation("no-such-evaluation"));
        assertEquals(404, missing.status());
        assertEquals("evaluation-not-found", missing.kind());
        assertEquals(404, assertThrows(CorporaProblemException.class, () -> admin.applyEvaluation("no-such-evaluation")).status());
        assertForbidden(() -> corpora.client(tenant, "writer").evaluations(0, 20));
    }

    private static void assertForbidden(Executable call) {
        CorporaProblemException forbidden = assertThrows(CorporaProblemException.class, call);
        assertEquals(403, forbidden.status(), forbidden.getMessage());
        assertEquals("https", forbidden.type().getScheme());
        assertNotNull(forbidden.requestId());
    }
}
