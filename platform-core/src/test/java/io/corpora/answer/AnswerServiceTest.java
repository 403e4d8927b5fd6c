package io.corpora.answer;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.status;
import static io.corpora.testkit.ChatCompletionsStandIn.streamOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.AnswerPolicy;
import io.corpora.controlplane.IngestPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.GuardedGenerator;
import io.corpora.runtime.guard.PluginCallObserver;
import io.corpora.runtime.guard.PluginGuards;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import io.corpora.testkit.ChatCompletionsStandIn;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.ReservedKeyStamper;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The answer service on the real retrieval path (the bundled ONNX embedder, the test kit's exact store, an audience
 * hook), with the real {@code generator-openai} plugin behind the tenant's guard, talking to the chat-completions
 * stand-in (no model can run here). What the stand-in received is the prompt the model would have seen.
 */
class AnswerServiceTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final String VISIBLE = "Hotel stays are reimbursed up to the city rate of 180 euros a night.";
    private static final String HIDDEN = "Hotel stays of executives are reimbursed at cost, without any cap, says the secret board memo.";
    private static Embedder embedder;
    private static PluginRegistry plugins;
    private static ExecutorService pluginCalls;

    @TempDir
    static Path data;

    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 384);
    private final Actor alice = new Actor("acme", "alice", Set.of("reader"), Set.of("legal"), Map.of());
    private final RetrievalFilterHook audience = actor -> MetadataFilter.anyOf("audience", actor.groups().stream().map(g -> "group:" + g).toList());
    private final List<String> observed = new CopyOnWriteArrayList<>();
    private final AnswerObserver observer = new AnswerObserver() {
        @Override
        public void answered(String tenant, Outcome outcome, int removedCitations) {
            observed.add(outcome + ":" + removedCitations);
        }

        @Override
        public void transformFellBack(String tenant, String transform) {
            observed.add("fallback:" + transform);
        }
    };
    private ChatCompletionsStandIn standIn;
    private Generator generator;

    @BeforeAll
    static void loadPlugins() {
        plugins = PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins")));
        embedder = plugins.create(EmbedderProvider.class, "onnx", PluginContext.of(data, "test"), Map.of());
        pluginCalls = Executors.newCachedThreadPool();
    }

    @AfterAll
    static void close() {
        embedder.close();
        pluginCalls.shutdownNow();
    }

    @AfterEach
    void stop() {
        if (generator != null) {
            generator.close();
        }
        if (standIn != null) {
            standIn.close();
        }
    }

    @Test
    void noVisiblePassageAnswersNoSourceWithoutCallingTheModel() throws Exception {
        index("memo", HIDDEN, "group:finance");
        AnswerService service = service(completion("should never be asked", "m", 1, 1));

        Answer answer = service.ask(decide(), runtime(AnswerPolicy.DEFAULT), question("How are hotel stays reimbursed?"));

        assertTrue(answer.diagnostics().noSource());
        assertEquals(AnswerService.NO_SOURCE_ANSWER, answer.answer());
        assertEquals(List.of(), answer.citations());
        assertEquals(0, standIn.requests.size(), "the model was called");
        assertEquals(List.of("NO_SOURCE:0"), observed);
    }

    @Test
    void aHiddenPassageNeverReachesThePromptAndInventedCitationsAreStripped() throws Exception {
        index("policy", VISIBLE, "group:legal");
        index("memo", HIDDEN, "group:finance");
        AnswerService service = service(completion("Up to 180 euros a night [1]; executives at cost [2][7].",
                "stand-in-model", 50, 12));

        Answer answer = service.ask(decide(), runtime(AnswerPolicy.DEFAULT), question("How are hotel stays reimbursed?"));

        String prompt = prompt(standIn.only().body());
        assertTrue(prompt.contains(VISIBLE), prompt);
        assertFalse(prompt.contains("executives"), "a passage the actor may not see reached the prompt: " + prompt);
        assertTrue(prompt.contains("<retrieved_context>\n[1] "), prompt);
        assertTrue(prompt.contains("contains no instructions"), prompt);
        assertEquals("Up to 180 euros a night [1]; executives at cost .", answer.answer());
        assertEquals(2, answer.diagnostics().removedCitations());
        assertEquals(List.of("policy"), answer.citations().stream().map(AnswerCitation::documentId).toList());
        assertEquals(1, answer.citations().get(0).n());
        assertEquals(62, answer.usage().totalTokens());
        assertEquals(List.of("ANSWERED:2"), observed);
    }

    @Test
    void aStreamedAnswerDeliversCheckedDeltasAndTheSameChecks() throws Exception {
        index("policy", VISIBLE, "group:legal");
        index("memo", HIDDEN, "group:finance");
        AnswerService service = service(
                events(streamOf(List.of("Up to 180 euros ", "a night [", "1] and [", "4] more."), 40)));
        List<List<AnswerCitation>> retrieved = new ArrayList<>();
        List<String> deltas = new ArrayList<>();

        Answer answer = service.ask(decide(), runtime(AnswerPolicy.DEFAULT), question("How are hotel stays reimbursed?"), new AnswerListener() {
            @Override
            public void retrieved(List<AnswerCitation> context) {
                retrieved.add(context);
            }

            @Override
            public void delta(String text) {
                deltas.add(text);
            }
        });

        assertTrue(standIn.only().body().path("stream").asBoolean(), "the model call streamed");
        assertFalse(prompt(standIn.only().body()).contains("executives"));
        assertEquals(1, retrieved.size());
        assertEquals(List.of("policy"), retrieved.get(0).stream().map(AnswerCitation::documentId).toList());
        assertEquals("Up to 180 euros a night [1] and  more.", String.join("", deltas));
        assertEquals(String.join("", deltas), answer.answer());
        assertEquals(1, answer.diagnostics().removedCitations());
        assertEquals(1, answer.citations().size());
    }

    @Test
    void aListenerThatGivesUpCancelsTheModelCall() throws Exception {
        index("policy", VISIBLE, "group:legal");
        AnswerService service = service(events(streamOf(List.of("one ", "two ", "three ", "four"), 10)));

        assertThrows(CancellationException.class, () -> service.ask(decide(), runtime(AnswerPolicy.DEFAULT), question("hotel reimbursement"),
                new AnswerListener() {
                    @Override
                    public void retrieved(List<AnswerCitation> context) {}

                    @Override
                    public void delta(String text) {
                        throw new java.io.UncheckedIOException(new java.io.IOException("client went away"));
                    }
                }));
        assertEquals(List.of("CANCELLED:0"), observed);
    }

    @Test
    void transformsThatFailOrTimeOutFallBackToTheQuestion() throws Exception {
        index("policy", VISIBLE, "group:legal");
        index("memo", HIDDEN, "group:finance");
        AnswerPolicy both = new AnswerPolicy(null, 3, true, null);
        // multi-query: refused (400, not retried); HyDE: answers after the transform timeout; then the answer itself
        AnswerService service = service(status(400, "{\"error\":{\"message\":\"bad\"}}"), (exchange, request) -> {
            Thread.sleep(3_000);
            completion("too late", "m", 1, 1).respond(exchange, request);
        }, completion("At the city rate [1].", "m", 10, 5));

        Answer answer = service.ask(decide(), runtime(both), question("How are hotel stays reimbursed?"));

        assertEquals("At the city rate [1].", answer.answer());
        List<Answer.TransformReport> reports = answer.diagnostics().transforms();
        assertEquals(List.of("multi-query", "hyde"), reports.stream().map(Answer.TransformReport::name).toList());
        assertTrue(reports.stream().allMatch(Answer.TransformReport::fellBack), reports.toString());
        assertTrue(reports.get(1).reason().contains("no answer within"), reports.get(1).reason());
        assertTrue(observed.containsAll(List.of("fallback:multi-query", "fallback:hyde", "ANSWERED:0")), observed.toString());
        assertFalse(prompt(standIn.requests.get(2).body()).contains("executives"));
    }

    @Test
    void multiQueryPhrasingsAreRetrievedUnderTheSameAccessAndFused() throws Exception {
        index("policy", VISIBLE, "group:legal");
        index("memo", HIDDEN, "group:finance");
        index("ferry", "Ferries to the islands leave the harbour every hour.", "group:legal");
        AnswerPolicy expand = new AnswerPolicy(null, 2, false, null);
        AnswerService service = service(events(streamOf(List.of("1. executive hotel costs at cost\n- board memo on hotels"), 5)),
                completion("City rate [1].", "m", 10, 5));

        Answer answer = service.ask(decide(), runtime(expand), question("hotel reimbursement"));

        Answer.TransformReport report = answer.diagnostics().transforms().get(0);
        assertFalse(report.fellBack(), report.toString());
        assertEquals(List.of("executive hotel costs at cost", "board memo on hotels"), report.queries());
        String prompt = prompt(standIn.requests.get(1).body());
        assertTrue(prompt.contains(VISIBLE), prompt);
        assertFalse(prompt.contains("executives"), "a phrasing widened access: " + prompt);
    }

    @Test
    void aTenantWithoutAGeneratorIsRefusedBeforeAnythingIsRetrieved() {
        AnswerService service = new AnswerService(retrieval(), Duration.ofSeconds(1), observer);
        TenantRuntime none = new TenantRuntime(tenant(AnswerPolicy.DEFAULT).definition(), store, embedder, null, audience,
                ChunkingOptions.defaults());
        NoGeneratorException e = assertThrows(NoGeneratorException.class, () -> service.ask(decide(), none, question("hotel")));
        assertTrue(e.getMessage().contains("\"generator\""), e.getMessage());
    }

    @Test
    void aTemplateGetsTheContextAndTheQuestionInOnePass() {
        assertEquals("Q: {context} C: [1] {question}", AnswerService.prompt("Q: {question} C: {context}", "[1] {question}", "{context}"));
    }

    // ---- fixtures

    private AnswerService service(ChatCompletionsStandIn.Responder... script) throws Exception {
        standIn = new ChatCompletionsStandIn().answer(script);
        generator = plugins.create(GeneratorProvider.class, "openai", PluginContext.of(data, "test"),
                Map.of("baseUrl", standIn.baseUrl(), "model", "stand-in-model", "apiKey", "sk-test", "retryDelay", "10ms"));
        return new AnswerService(retrieval(), Duration.ofMillis(500), observer);
    }

    private RetrievalService retrieval() {
        return new RetrievalService((ns, ids) -> {
            Map<String, Integer> versions = new HashMap<>();
            ids.forEach(id -> versions.put(id, 1));
            return versions;
        }, 4);
    }

    private Tenant tenant(AnswerPolicy policy) {
        TenantDefinition definition = new TenantDefinition("acme", "ACME", TenantState.ACTIVE, new PluginChoice("reference", Map.of()),
                new PluginChoice("onnx", Map.of()), null, new RetrievalDefaults("vector", 2, null, null, false), Quotas.UNLIMITED,
                AccessPolicy.NONE, IngestPolicy.NONE, new PluginChoice("openai", Map.of()), policy);
        return new Tenant(definition, embedder.fingerprint().id(), Instant.now(), Instant.now(), 1);
    }

    private AccessDecision decide() {
        return AccessDecision.decide(alice, tenant(AnswerPolicy.DEFAULT), ACME, null, audience);
    }

    /** The tenant's runtime as TenantRuntimes builds it: the generator behind the tenant's own guard. */
    private TenantRuntime runtime(AnswerPolicy policy) {
        PluginGuards guards = new PluginGuards(GuardPolicy::defaults, GuardContext.system(pluginCalls, PluginCallObserver.NONE));
        return new TenantRuntime(tenant(policy).definition(), store, embedder, null, audience, ChunkingOptions.defaults(),
                new GuardedGenerator(generator, guards.guard("acme", CallKind.GENERATOR, "openai"), guards.executor()));
    }

    private static RetrieveCommand question(String text) {
        return RetrieveCommand.of(text);
    }

    /** Every message the model received, joined. */
    private static String prompt(JsonNode body) {
        StringBuilder all = new StringBuilder();
        body.path("messages").forEach(m -> all.append(m.path("content").asText()).append('\n'));
        return all.toString();
    }

    private void index(String documentId, String text, String audienceValue) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk(documentId + ":0", documentId, 0, text, List.of(), Map.of("audience", audienceValue)),
                ACME, documentId, 1);
        Map<String, Object> stamped = new HashMap<>(chunk.metadata());
        stamped.put(ReservedKeys.EMBEDDER, embedder.fingerprint().id());
        store.upsert(ACME, List.of(new EmbeddedChunk(chunk.withMetadata(stamped), embedder.embedDocuments(List.of(text)).get(0))));
    }
}
