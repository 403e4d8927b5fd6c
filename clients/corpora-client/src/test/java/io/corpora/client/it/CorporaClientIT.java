package io.corpora.client.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaProblemException;
import io.corpora.client.FrameworkRetrieval;
import io.corpora.client.RetryPolicy;
import io.corpora.client.model.CorpusStats;
import io.corpora.client.model.Document;
import io.corpora.client.model.DocumentChunks;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.DocumentPage;
import io.corpora.client.model.IngestOutcome;
import io.corpora.client.model.Job;
import io.corpora.client.model.Passage;
import io.corpora.client.model.RetrievalBatchResult;
import io.corpora.client.model.RetrievalResult;
import io.corpora.client.model.RetrieveBatchRequest;
import io.corpora.client.model.RetrieveOptions;
import io.corpora.client.model.RetrieveRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The typed client against a running Corpora: ingest, jobs, retrieval isolated per tenant, documents, problems. */
class CorporaClientIT {

    private static RunningCorpora corpora;
    private static String acme;
    private static String globex;
    private static CorporaClient acmeWriter;
    private static CorporaClient globexWriter;

    @BeforeAll
    static void twoTenants() throws Exception {
        corpora = RunningCorpora.get();
        acme = corpora.createTenant("acme", Map.of());
        globex = corpora.createTenant("globex", Map.of());
        acmeWriter = corpora.client(acme, "writer", "reader");
        globexWriter = corpora.client(globex, "writer", "reader");
        assertEquals("stored", acmeWriter.ingest(DocumentInput.text("keys.md", "# Security\n\n## Key rotation\n\nRotate the signing keys every"
                + " ninety days with the rotate-keys command.").withFormat("markdown").withSource("https://acme.example/keys.md")
                .withMetadata(Map.of("lang", "en"))).result());
        assertEquals("stored", globexWriter.ingest(DocumentInput.text("keys.txt", "Globex rotates its signing keys every seven days.")).result());
    }

    @Test
    void anIngestIsStoredOnceAndSkippedWhenUnchanged() {
        DocumentInput input = DocumentInput.text("twice.txt", "Unchanged documents are not embedded again.");
        IngestOutcome first = acmeWriter.ingest(input);
        assertEquals(201, first.status());
        assertEquals(1, first.version());
        assertTrue(first.chunks() >= 1);
        IngestOutcome second = acmeWriter.ingest(input);
        assertEquals("skipped", second.result());
        assertTrue(second.skipped());
        assertEquals(200, second.status());
    }

    @Test
    void aBatchIsAJobThatTheClientWaitsFor() {
        Job accepted = acmeWriter.ingestBatch(List.of(DocumentInput.text("b1.txt", "Batch one is about invoices."),
                DocumentInput.text("b2.txt", "Batch two is about shipping.")));
        assertEquals("ingest", accepted.kind());
        Job done = acmeWriter.awaitJob(accepted.id(), Duration.ofMinutes(2));
        assertEquals("SUCCEEDED", done.status(), done.toString());
        assertEquals(100, done.percent());
        assertEquals(Set.of("b1.txt", "b2.txt"), done.outcomes().stream().map(o -> o.documentId()).collect(Collectors.toSet()));
        assertTrue(acmeWriter.jobs(20).jobs().stream().anyMatch(j -> j.id().equals(accepted.id())));
    }

    @Test
    void anUploadedFileIsIngestedByAJob(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("upload-notes.md"), "# Uploads\n\nFiles uploaded through the client become documents.");
        Job job = acmeWriter.awaitJob(acmeWriter.upload(List.of(file), null, Map.of("team", "docs")).id(), Duration.ofMinutes(2));
        assertEquals("SUCCEEDED", job.status(), job.toString());
        String id = job.outcomes().get(0).documentId();
        assertEquals("docs", acmeWriter.document(id, null).metadata().get("team"));
    }

    @Test
    void aFrameworkRetrievalSendsEachQueryItsOwnRequest() {
        // Stands for a framework's query type: its text, and the filter its context (e.g. a chat memory id) would give.
        record FrameworkQuery(String text, Map<String, Object> filter) {}
        FrameworkRetrieval<FrameworkQuery> byQuery = new FrameworkRetrieval<>(acmeWriter,
                query -> RetrieveRequest.of(query.text()).withFilter(query.filter()));
        String question = "how often are signing keys rotated?";
        List<Passage> english = byQuery.passages(new FrameworkQuery(question, Map.of("lang", "en")));
        assertEquals(List.of("keys.md"), english.stream().map(p -> p.citation().documentId()).distinct().toList(), english.toString());
        assertEquals(List.of(), byQuery.passages(new FrameworkQuery(question, Map.of("lang", "fr"))), "that query's own filter applied");

        FrameworkRetrieval<String> sameOptions = FrameworkRetrieval.withOptions(acmeWriter, RetrieveOptions.DEFAULTS.withTopK(1), text -> text);
        assertEquals(1, sameOptions.passages(question).size(), "every query with the options' topK");
        assertThrows(NullPointerException.class, () -> FrameworkRetrieval.<String>withOptions(acmeWriter, null, text -> text));
    }

    @Test
    void retrievalSeesOnlyTheTokensTenant() {
        RetrievalResult atAcme = acmeWriter.retrieve(RetrieveRequest.of("how often are signing keys rotated?").withTopK(5));
        assertFalse(atAcme.passages().isEmpty(), atAcme.toString());
        Passage top = atAcme.passages().get(0);
        assertEquals("keys.md", top.citation().documentId());
        assertTrue(top.citation().headingPath().contains("Key rotation"), top.citation().toString());
        assertEquals("https://acme.example/keys.md", top.source());
        assertEquals("en", top.metadata().get("lang"));
        assertTrue(atAcme.context().contains("ninety days"), atAcme.context());
        assertNotNull(atAcme.diagnostics().embedder());
        assertNotNull(atAcme.diagnostics().returned(), "the server's isolation counts: " + atAcme.diagnostics());

        RetrievalResult atGlobex = globexWriter.retrieve(RetrieveRequest.of("how often are signing keys rotated?").withTopK(5));
        assertEquals(Set.of("keys.txt"), atGlobex.passages().stream().map(p -> p.citation().documentId()).collect(Collectors.toSet()));
        assertFalse(atGlobex.context().contains("ninety"), atGlobex.context());

        // acme's token on globex's routes: the tenant comes from the token, never from the path.
        CorporaClient acmeTokenAtGlobex = CorporaClient.builder(corpora.baseUri(), globex)
                .token(corpora.token("client-it", acme, "reader")).retries(RetryPolicy.NONE).build();
        CorporaProblemException refused = assertThrows(CorporaProblemException.class,
                () -> acmeTokenAtGlobex.retrieve(RetrieveRequest.of("signing keys")));
        assertEquals(403, refused.status());
        assertEquals("https", refused.type().getScheme());
        assertNotNull(refused.requestId());
    }

    @Test
    void aBatchOfRetrievesIsAnsweredInOrder() {
        RetrievalBatchResult batch = acmeWriter.retrieveBatch(new RetrieveBatchRequest(List.of(
                RetrieveRequest.of("signing keys rotation"), RetrieveRequest.of("zebra giraffe elephant").withMode("keyword")), null));
        assertEquals(2, batch.results().size());
        assertEquals("keys.md", batch.results().get(0).passages().get(0).citation().documentId());
        assertTrue(batch.results().get(1).passages().isEmpty(), batch.results().get(1).toString());
    }

    @Test
    void documentsAreListedReadChunkedAndDeleted() {
        String id = "guides/delete-me.md"; // a '/' in the id: the client sends it as a query parameter
        acmeWriter.ingest(DocumentInput.text(id, "# Deleting\n\nA deleted document is gone from retrieval.").withFormat("markdown"));
        Document document = acmeWriter.document(id, null);
        assertEquals("ACTIVE", document.status());
        assertEquals("text/markdown", document.mediaType());
        DocumentChunks chunks = acmeWriter.chunks(id, null);
        assertEquals(id, chunks.documentId());
        assertEquals(List.of("Deleting"), chunks.chunks().get(0).headingPath());
        DocumentPage first = acmeWriter.documents(null, null, 1);
        assertEquals(1, first.documents().size());
        assertNotNull(first.next());
        DocumentPage all = acmeWriter.documents(null, null, 500);
        assertNull(all.next());
        assertTrue(all.documents().stream().anyMatch(d -> d.id().equals(id)));

        acmeWriter.delete(id, null);
        CorporaProblemException gone = assertThrows(CorporaProblemException.class, () -> acmeWriter.document(id, null));
        assertEquals(404, gone.status());
        assertEquals("document-not-found", gone.kind());
        assertTrue(gone.detail().contains(id), gone.detail());
        assertEquals(404, assertThrows(CorporaProblemException.class, () -> acmeWriter.delete(id, null)).status());
    }

    @Test
    void aReaderMayNotWriteAndStatsCountWhatIsStored() {
        CorporaProblemException forbidden = assertThrows(CorporaProblemException.class,
                () -> corpora.client(globex, "reader").ingest(DocumentInput.text("x.txt", "readers cannot write")));
        assertEquals(403, forbidden.status());
        CorpusStats stats = globexWriter.stats();
        assertEquals(globex, stats.tenant());
        assertEquals(1, stats.documents());
        assertEquals(1L, stats.documentsByStatus().get("ACTIVE"));
    }

    @Test
    void aTenantThatIsNotActiveIsAConflict() throws Exception {
        String dormant = corpora.createTenant("dormant", Map.of());
        corpora.setState(dormant, "INACTIVE");
        CorporaProblemException conflict = assertThrows(CorporaProblemException.class,
                () -> corpora.client(dormant, "reader").retrieve(RetrieveRequest.of("anything")));
        assertEquals(409, conflict.status(), conflict.getMessage());
    }

    @Test
    void aQuotaIsA429WithRetryAfterThatTheClientDoesNotWaitBeyondItsLimit() throws Exception {
        String limited = corpora.createTenant("limited", Map.of("quotas", Map.of("ingestsPerMinute", 1)));
        CorporaClient writer = CorporaClient.builder(corpora.baseUri(), limited).token(corpora.token("w", limited, "writer"))
                .retries(new RetryPolicy(3, Duration.ofMillis(500))).build();
        writer.ingest(DocumentInput.text("one.txt", "the only ingest this minute"));
        long started = System.nanoTime();
        CorporaProblemException limitedProblem = assertThrows(CorporaProblemException.class,
                () -> writer.ingest(DocumentInput.text("two.txt", "one too many")));
        assertEquals(429, limitedProblem.status());
        assertTrue(limitedProblem.retryAfter().orElseThrow().toSeconds() >= 1, limitedProblem.retryAfter().toString());
        // Retry-After (>= 1 s) is over the policy's 500 ms: thrown at once, not after a wait.
        assertTrue(Duration.ofNanos(System.nanoTime() - started).toMillis() < 1000);
    }

    @Test
    void aJobOfAnotherTenantIsNotFound() {
        Job job = acmeWriter.ingestBatch(List.of(DocumentInput.text("private.txt", "acme only")));
        CorporaProblemException notFound = assertThrows(CorporaProblemException.class, () -> globexWriter.job(job.id()));
        assertEquals(404, notFound.status());
        assertEquals("job-not-found", notFound.kind());
        acmeWriter.awaitJob(job.id(), Duration.ofMinutes(2));
    }
}
