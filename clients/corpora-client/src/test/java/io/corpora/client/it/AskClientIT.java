package io.corpora.client.it;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.streamOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.client.AskListener;
import io.corpora.client.AskStream;
import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaProblemException;
import io.corpora.client.PassageMetadata;
import io.corpora.client.model.AnswerCitation;
import io.corpora.client.model.AskDiagnostics;
import io.corpora.client.model.AskRequest;
import io.corpora.client.model.AskResponse;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.Passage;
import io.corpora.client.model.RetrieveRequest;
import io.corpora.testkit.ChatCompletionsStandIn;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client's {@code ask} and {@code askStreaming} against a running Corpora whose tenant's generator is the real
 * {@code generator-openai} plugin pointed at the test kit's chat-completions stand-in (no model runs here), so what the
 * stand-in received is the prompt. The tenant has the audience hook: the board memo is for the board group only.
 */
class AskClientIT {

    private static final String POLICY = "Hotel stays are reimbursed up to the city rate of 180 euros a night.";
    private static final String MEMO = "Hotel stays of executives are reimbursed at cost without any cap, says the board memo.";
    private static final String GLOBEX = "Globex never reimburses hotel stays; employees stay with customers.";
    private static final String QUESTION = "How are hotel stays reimbursed?";
    /** How long a test waits for an event before calling it hung (not a performance bound). */
    private static final long HANG_SECONDS = 60;

    private static RunningCorpora corpora;
    private static ChatCompletionsStandIn model;
    private static ChatCompletionsStandIn brokenModel;
    private static String acme;
    private static String globex;
    private static String failing;
    private static CorporaClient legalReader;

    @BeforeAll
    static void tenants() throws Exception {
        corpora = RunningCorpora.get();
        model = new ChatCompletionsStandIn();
        brokenModel = new ChatCompletionsStandIn().answer(ChatCompletionsStandIn.status(500, "{\"error\": {\"message\": \"down\"}}"));
        acme = corpora.createTenant("ask", withGenerator(model));
        globex = corpora.createTenant("noask", audienceHook()); // no generator
        failing = corpora.createTenant("askfail", withGenerator(brokenModel));
        for (String tenant : List.of(acme, globex, failing)) {
            CorporaClient writer = corpora.client(tenant, "writer", List.of("legal", "board"), "writer");
            writer.ingest(DocumentInput.text("policy", tenant.equals(globex) ? GLOBEX : POLICY).withMetadata(Map.of("audience", "group:legal")));
            if (!tenant.equals(globex)) {
                writer.ingest(DocumentInput.text("memo", MEMO).withMetadata(Map.of("audience", "group:board")));
            }
        }
        legalReader = corpora.client(acme, "rita", List.of("legal"), "reader");
    }

    @AfterAll
    static void stopModels() {
        model.close();
        brokenModel.close();
    }

    @BeforeEach
    void forgetRequests() {
        model.requests.clear();
    }

    @Test
    void aBlockingAnswerCitesOnlyPassagesOfTheTenantsOwnDocuments() {
        model.answer(completion("Up to 180 euros a night [1]; nobody knows [7].", "stand-in-model-1", 70, 14));

        AskResponse answer = legalReader.ask(AskRequest.of(QUESTION).withTopK(5));

        assertEquals("Up to 180 euros a night [1]; nobody knows .", answer.answer());
        assertEquals(1, answer.citations().size(), answer.toString());
        AnswerCitation cited = answer.citation(1).orElseThrow();
        assertEquals("policy", cited.documentId());
        assertEquals(POLICY, cited.text());
        Passage retrieved = legalReader.retrieve(RetrieveRequest.of(QUESTION).withTopK(5)).passages().get(0);
        assertEquals(retrieved.id(), cited.passageId(), "the citation names the retrieved passage");
        assertEquals(Map.of(PassageMetadata.PASSAGE_ID, retrieved.id(), PassageMetadata.DOCUMENT_ID, "policy",
                PassageMetadata.SOURCE, retrieved.citation().source(), PassageMetadata.HEADING_PATH, List.of()), cited.metadata());
        assertEquals(84, answer.usage().totalTokens());
        AskDiagnostics diagnostics = answer.diagnostics();
        assertFalse(diagnostics.noSource());
        assertEquals("stand-in-model-1", diagnostics.model());
        assertEquals(1, diagnostics.removedCitations());
        assertEquals(1, diagnostics.passagesInContext());
        assertEquals("stop", diagnostics.finishReason());
        assertNotNull(diagnostics.retrieval().embedder(), diagnostics.toString());
        String prompt = prompt(model.only().body());
        assertTrue(prompt.contains(POLICY), prompt);
        assertFalse(prompt.contains("Globex"), "another tenant's passage reached the prompt: " + prompt);
    }

    @Test
    void aStreamDeliversTheContextThenDeltasInOrderAndEndsWithTheBlockingAnswer() throws Exception {
        model.answer(completion("Up to 180 euros a night [1].", "stand-in-model-2024", 30, 3),
                events(streamOf(List.of("Up to 180 ", "euros a night [", "1]."), 30)));
        AskResponse blocking = legalReader.ask(AskRequest.of(QUESTION));
        List<String> order = new CopyOnWriteArrayList<>();
        List<String> deltas = new CopyOnWriteArrayList<>();
        List<List<AnswerCitation>> contexts = new CopyOnWriteArrayList<>();

        AskResponse streamed;
        try (AskStream stream = legalReader.askStreaming(AskRequest.of(QUESTION), new AskListener() {
            @Override
            public void retrieved(List<AnswerCitation> context) {
                order.add("retrieval");
                contexts.add(context);
            }

            @Override
            public void delta(String text) {
                order.add("delta");
                deltas.add(text);
            }
        })) {
            streamed = stream.answer().get(HANG_SECONDS, TimeUnit.SECONDS);
        }

        assertEquals("retrieval", order.get(0), order.toString());
        assertTrue(order.subList(1, order.size()).stream().allMatch("delta"::equals), order.toString());
        assertTrue(deltas.size() >= 2, "the answer arrived in pieces: " + deltas);
        assertEquals(List.of("policy"), contexts.get(0).stream().map(AnswerCitation::documentId).toList());
        assertEquals(String.join("", deltas), streamed.answer());
        assertEquals(blocking.answer(), streamed.answer());
        assertEquals(blocking.citations(), streamed.citations());
        assertEquals(blocking.usage(), streamed.usage());
        assertEquals(withoutRetrieval(blocking.diagnostics()), withoutRetrieval(streamed.diagnostics()));
        assertTrue(model.requests.get(1).body().path("stream").asBoolean(), "the second model call was not streamed");
    }

    @Test
    void aPassageOfAnotherAudienceIsNeverGivenToTheModelNorCited() throws Exception {
        CorporaClient boardReader = corpora.client(acme, "bob", List.of("board"), "reader");
        assertTrue(boardReader.retrieve(RetrieveRequest.of(QUESTION)).passages().stream().anyMatch(p -> p.citation().documentId().equals("memo")),
                "the memo is indexed and visible to the board");
        model.answer(completion("Up to 180 euros [1], executives at cost [2].", "m", 10, 5),
                events(streamOf(List.of("Executives at cost [2], ", "others [1]."), 10)));

        AskResponse answer = legalReader.ask(AskRequest.of(QUESTION));
        List<AnswerCitation> context = new ArrayList<>();
        AskResponse streamed = legalReader.askStreaming(AskRequest.of(QUESTION), new AskListener() {
            @Override
            public void retrieved(List<AnswerCitation> passages) {
                context.addAll(passages);
            }
        }).answer().get(HANG_SECONDS, TimeUnit.SECONDS);

        assertEquals(List.of("policy"), answer.citations().stream().map(AnswerCitation::documentId).toList());
        assertEquals(List.of("policy"), streamed.citations().stream().map(AnswerCitation::documentId).toList());
        assertEquals(List.of("policy"), context.stream().map(AnswerCitation::documentId).toList());
        assertEquals(2, model.requests.size());
        model.requests.forEach(r -> assertFalse(prompt(r.body()).contains("executives"), "the memo reached the prompt: " + prompt(r.body())));

        model.requests.clear();
        AskResponse outsider = corpora.client(acme, "olga", List.of("sales"), "reader").ask(AskRequest.of(QUESTION));
        assertTrue(outsider.diagnostics().noSource(), outsider.toString());
        assertEquals(List.of(), outsider.citations());
        assertEquals(0, model.requests.size(), "the model was called without a source");
    }

    @Test
    void refusalsBeforeTheStreamAreProblemsAndAnErrorEventFailsTheAnswer() throws Exception {
        CorporaClient noGenerator = corpora.client(globex, "gina", List.of("legal"), "reader");
        CorporaProblemException blocking = assertThrows(CorporaProblemException.class, () -> noGenerator.ask(AskRequest.of(QUESTION)));
        assertEquals(501, blocking.status());
        assertEquals("generator-not-configured", blocking.kind());
        assertTrue(blocking.detail().contains("generator"), blocking.detail());
        assertNotNull(blocking.requestId());
        CorporaProblemException streaming = assertThrows(CorporaProblemException.class,
                () -> noGenerator.askStreaming(AskRequest.of(QUESTION), new AskListener() {}));
        assertEquals(501, streaming.status());
        assertEquals("generator-not-configured", streaming.kind());
        assertEquals(400, assertThrows(CorporaProblemException.class, () -> legalReader.ask(AskRequest.of(" "))).status());
        CorporaClient acmeTokenAtGlobex = CorporaClient.builder(corpora.baseUri(), globex).token(corpora.token("rita", acme, "reader")).build();
        assertEquals(403, assertThrows(CorporaProblemException.class, () -> acmeTokenAtGlobex.ask(AskRequest.of(QUESTION))).status());

        // the generator fails after the stream began (its passages were sent): the error event is the problem
        CorporaClient failingReader = corpora.client(failing, "rita", List.of("legal"), "reader");
        List<String> received = new CopyOnWriteArrayList<>();
        AskStream stream = failingReader.askStreaming(AskRequest.of(QUESTION), new AskListener() {
            @Override
            public void retrieved(List<AnswerCitation> context) {
                received.add("retrieval");
            }
        });
        ExecutionException failed = assertThrows(ExecutionException.class, () -> stream.answer().get(HANG_SECONDS, TimeUnit.SECONDS));
        CorporaProblemException problem = (CorporaProblemException) failed.getCause();
        assertEquals(503, problem.status(), problem.toString());
        assertEquals("plugin-unavailable", problem.kind());
        assertTrue(problem.retryAfter().isPresent(), "the error event says when to try again, as a 503's header does");
        assertEquals(List.of("retrieval"), received);
        CorporaProblemException sameAsBlocking = assertThrows(CorporaProblemException.class, stream::await);
        assertEquals(problem.kind(), sameAsBlocking.kind());
        CorporaProblemException whole = assertThrows(CorporaProblemException.class, () -> failingReader.ask(AskRequest.of(QUESTION)));
        assertEquals(503, whole.status());
        assertTrue(whole.retryAfter().isPresent(), "a 503 says when to try again");
    }

    @Test
    void cancellingAStreamClosesTheModelCall() throws Exception {
        CompletableFuture<Integer> backendClosed = new CompletableFuture<>();
        model.answer((exchange, request) -> { // a slow model: a delta every 200 ms, until nobody listens
            int written = 0;
            try (OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                ChatCompletionsStandIn.writeEvent(out, ChatCompletionsStandIn.roleChunk());
                for (; written < 300; written++) {
                    ChatCompletionsStandIn.writeEvent(out, ChatCompletionsStandIn.delta("word" + written + " "));
                    Thread.sleep(200);
                }
                ChatCompletionsStandIn.writeEvent(out, "[DONE]");
                backendClosed.complete(written);
            } catch (IOException e) {
                backendClosed.complete(written);
            }
        });
        CountDownLatch firstDelta = new CountDownLatch(1);
        AskStream stream = legalReader.askStreaming(AskRequest.of(QUESTION), new AskListener() {
            @Override
            public void delta(String text) {
                firstDelta.countDown();
            }
        });
        assertTrue(firstDelta.await(HANG_SECONDS, TimeUnit.SECONDS), "no delta arrived");

        stream.cancel();

        assertTrue(stream.answer().isCancelled());
        assertThrows(CancellationException.class, stream::await);
        int written = backendClosed.get(HANG_SECONDS, TimeUnit.SECONDS);
        assertTrue(written < 300, "the model was read to the end: " + written);
    }

    private static Map<String, Object> withGenerator(ChatCompletionsStandIn standIn) {
        Map<String, Object> extra = new java.util.LinkedHashMap<>(audienceHook());
        extra.put("generator", Map.of("provider", "openai", "config", Map.of("baseUrl", standIn.baseUrl(), "model", "stand-in-model",
                "maxRetries", 0)));
        return extra;
    }

    private static Map<String, Object> audienceHook() {
        return Map.of("access", Map.of("partitions", List.of(), "filterHook", Map.of("provider", "audience", "config",
                Map.of("key", "audience", "templates", List.of("public", "group:{groups}")))));
    }

    /** The diagnostics without the retrieval's (its timings differ between two calls). */
    private static AskDiagnostics withoutRetrieval(AskDiagnostics d) {
        return new AskDiagnostics(d.noSource(), d.model(), d.passagesInContext(), d.removedCitations(), d.finishReason(), d.transforms(), null);
    }

    private static String prompt(JsonNode body) {
        return body.path("messages").findValuesAsText("content").stream().collect(Collectors.joining("\n"));
    }
}
