package io.corpora.retrieval.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.retrieval.RetrievalService;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.ReservedKeyStamper;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Evaluations through the real retrieval service, the bundled ONNX embedder and the Lucene store, with an audience hook. */
class RetrievalEvaluatorTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final RetrievalFilterHook BY_GROUP = actor -> MetadataFilter.anyOf("audience",
            actor.groups().stream().map(g -> "group:" + g).toList());
    private static Embedder embedder;
    private static VectorStore lucene;

    @TempDir
    static Path data;

    @BeforeAll
    static void indexACorpus() {
        PluginRegistry plugins = PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins")));
        embedder = plugins.create(EmbedderProvider.class, "onnx", PluginContext.of(data, "test"), Map.of());
        lucene = plugins.create(VectorStoreProvider.class, "lucene", PluginContext.of(data.resolve("lucene"), "test"), Map.of());
        index("hotel", "Hotel stays are reimbursed up to the city rate.", "group:finance");
        index("harbour", "The harbour closes at midnight; ferries leave hourly.", "group:legal");
        index("lanterns", "Oil lanterns need their wicks trimmed every week.", "group:legal");
    }

    @AfterAll
    static void close() {
        lucene.close();
        embedder.close();
    }

    private static final JudgedSet JUDGED = JudgedSet.of(new LinkedHashMap<>(Map.of(
                    "q1", "hotel reimbursement",
                    "q2", "when do the ferries leave",
                    "q3", "lodging refund policy")),
            "query-id\tcorpus-id\tscore\nq1\thotel\t2\nq2\tharbour\t1\nq3\thotel\t1\n");

    @Test
    void aJudgedDocumentTheActorMayNotSeeCountsAsNotRetrieved() {
        Actor finance = new Actor("acme", "fiona", Set.of("reader"), Set.of("finance", "legal"), Map.of());
        Actor legal = new Actor("acme", "lee", Set.of("reader"), Set.of("legal"), Map.of());
        List<Candidate> vector = List.of(new Candidate("vector", null));
        EvaluationResult seesAll = evaluator().evaluate(decide(finance), runtime(), JUDGED, vector, 10, null);
        EvaluationResult legalOnly = evaluator().evaluate(decide(legal), runtime(), JUDGED, vector, 10, null);

        Map<String, Double> all = ndcgByQuery(seesAll.candidates().get(0));
        Map<String, Double> restricted = ndcgByQuery(legalOnly.candidates().get(0));
        assertEquals(1.0, all.get("q1"), 1e-12, "the finance actor finds the hotel policy first");
        assertEquals(1.0, all.get("q2"), 1e-12);
        assertEquals(0.0, restricted.get("q1"), "the hotel policy is invisible to a legal-only actor: not retrieved");
        assertEquals(0.0, restricted.get("q3"));
        assertEquals(1.0, restricted.get("q2"), 1e-12, "what the actor may see still counts");
        assertEquals(1.0 / 3, legalOnly.candidates().get(0).ndcg10(), 1e-12);
    }

    @Test
    void everyCandidateIsMeasuredAndTheBestRecommendedButNothingChanges() {
        Actor finance = new Actor("acme", "fiona", Set.of("reader"), Set.of("finance", "legal"), Map.of());
        Tenant tenant = tenant();
        List<Candidate> candidates = List.of(new Candidate("keyword", null), new Candidate("vector", null),
                new Candidate("hybrid", FusionSpec.STANDARD), new Candidate("hybrid", FusionSpec.convex("minmax", 0.8)));
        List<int[]> progress = new ArrayList<>();
        EvaluationResult result = evaluator().evaluate(AccessDecision.decide(finance, tenant, ACME, null, BY_GROUP), runtime(), JUDGED,
                candidates, 10, (done, total) -> progress.add(new int[] {done, total}));

        assertEquals(12, progress.size(), "one progress step per query and candidate");
        assertEquals(12, progress.get(11)[0]);
        assertEquals(12, progress.get(11)[1]);
        EvaluationResult.CandidateResult keyword = result.candidates().get(0);
        assertEquals(0.0, ndcgByQuery(keyword).get("q3"), "no word of 'lodging refund policy' is in the corpus");
        double best = result.candidates().stream().mapToDouble(EvaluationResult.CandidateResult::ndcg10).max().orElseThrow();
        assertEquals(best, result.recommendation().ndcg10());
        assertTrue(keyword.ndcg10() < best, "the keyword leg alone is not the best here");
        assertTrue(result.recommended() > 0);
        assertEquals(FusionSpec.STANDARD, tenant.definition().retrieval().fusion(), "an evaluation never applies its recommendation");
        result.candidates().forEach(c -> c.queries().forEach(q -> assertNull(q.error(), c.candidate().describe() + " " + q)));
    }

    @Test
    void boundsAreCheckedUpFront() {
        Actor finance = new Actor("acme", "fiona", Set.of("reader"), Set.of("finance"), Map.of());
        assertThrows(IllegalArgumentException.class, () -> evaluator().evaluate(decide(finance), runtime(), JUDGED, List.of(), 10, null));
        assertThrows(IllegalArgumentException.class, () -> evaluator().evaluate(decide(finance), runtime(), JUDGED,
                List.of(new Candidate("vector", null)), 101, null));
    }

    private static Map<String, Double> ndcgByQuery(EvaluationResult.CandidateResult result) {
        Map<String, Double> out = new HashMap<>();
        result.queries().forEach(q -> out.put(q.queryId(), q.ndcg10()));
        return out;
    }

    private static RetrievalEvaluator evaluator() {
        return new RetrievalEvaluator(new RetrievalService((ns, ids) -> {
            Map<String, Integer> versions = new HashMap<>();
            ids.forEach(id -> versions.put(id, 1));
            return versions;
        }, 4));
    }

    private static Tenant tenant() {
        TenantDefinition definition = new TenantDefinition("acme", "ACME", TenantState.ACTIVE, new PluginChoice("lucene", Map.of()),
                new PluginChoice("onnx", Map.of()), null, RetrievalDefaults.STANDARD, Quotas.UNLIMITED, AccessPolicy.NONE);
        return new Tenant(definition, embedder.fingerprint().id(), Instant.now(), Instant.now(), 1);
    }

    private static AccessDecision decide(Actor actor) {
        return AccessDecision.decide(actor, tenant(), ACME, null, BY_GROUP);
    }

    private static TenantRuntime runtime() {
        return new TenantRuntime(tenant().definition(), lucene, embedder, null, BY_GROUP, ChunkingOptions.defaults());
    }

    private static void index(String documentId, String text, String audience) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk(documentId + ":0", documentId, 0, text, List.of(), Map.of("audience", audience)),
                ACME, documentId, 1);
        Map<String, Object> stamped = new HashMap<>(chunk.metadata());
        stamped.put(ReservedKeys.EMBEDDER, embedder.fingerprint().id());
        lucene.upsert(ACME, List.of(new EmbeddedChunk(chunk.withMetadata(stamped), embedder.embedDocuments(List.of(text)).get(0))));
    }
}
