package io.corpora.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.runtime.TenantRuntime;
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
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.AccessFilters;
import io.corpora.tenancy.ReservedKeyStamper;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The retrieval service with the real ONNX embedder plugin and the test kit's exact store, wrapped so every store
 * call is recorded: the order of operations is what keeps a failing access hook from ever reaching the store.
 */
class RetrievalServiceTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static Embedder embedder;
    private static PluginRegistry plugins;

    @TempDir
    static Path data;

    private final ReferenceVectorStore reference = new ReferenceVectorStore(VectorSimilarity.COSINE, 384);
    private final List<SearchRequest> searches = new ArrayList<>();
    private final AtomicInteger storeCalls = new AtomicInteger();
    private final VectorStore recordingStore = recording(reference);
    private final Actor alice = new Actor("acme", "alice", Set.of("reader"), Set.of("legal"), Map.of());

    @BeforeAll
    static void loadTheBundledEmbedder() {
        plugins = PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins")));
        embedder = plugins.create(EmbedderProvider.class, "onnx", PluginContext.of(data, "test"), Map.of());
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    @Test
    void aThrowingHookFailsTheRequestBeforeTheStoreOrTheEmbedderIsCalled() {
        index("policy", "Hotel stays are reimbursed up to the city rate.", Map.of("audience", "public"));
        storeCalls.set(0);
        RetrievalFilterHook broken = actor -> {
            throw new IllegalStateException("directory unavailable");
        };

        // The decision is made before a retrieval can even be called: the hook's failure stops the request there.
        assertThrows(AccessFilters.AccessDeniedException.class, () -> service().retrieve(decide(broken), runtime(broken),
                RetrieveCommand.of("hotel reimbursement")));
        assertThrows(AccessFilters.AccessDeniedException.class, () -> service().retrieve(decide(actor -> null), runtime(actor -> null),
                RetrieveCommand.of("hotel reimbursement")));
        assertEquals(0, storeCalls.get());
    }

    @Test
    void withoutAHookNoFilterIsAddedAtAll() {
        index("policy", "Hotel stays are reimbursed up to the city rate.", Map.of("audience", "group:finance"));

        RetrievalResponse response = service().retrieve(decide(null), runtime(null), vectorQuery("hotel reimbursement"));

        assertEquals(1, response.passages().size());
        assertTrue(searches.stream().allMatch(s -> s.filter().isMatchAll()), searches.toString());
    }

    @Test
    void theHookFilterReachesTheStoreAndRequestFiltersOnlyNarrowIt() {
        index("visible", "Hotel stays are reimbursed up to the city rate.", Map.of("audience", "group:legal", "lang", "en"));
        index("hidden", "Hotel stays abroad are reimbursed at cost.", Map.of("audience", "group:finance", "lang", "en"));
        RetrievalFilterHook legalOnly = actor -> MetadataFilter.anyOf("audience", actor.groups().stream().map(g -> "group:" + g).toList());

        RetrievalResponse response = service().retrieve(decide(legalOnly), runtime(legalOnly), vectorQuery("hotel reimbursement"));
        assertEquals(List.of("visible"), response.passages().stream().map(p -> p.citation().documentId()).toList());

        RetrieveCommand widening = new RetrieveCommand("hotel", "vector", 5, MetadataFilter.eq("audience", "group:finance"), null, null,
                false, 0, null);
        assertEquals(0, service().retrieve(decide(legalOnly), runtime(legalOnly), widening).passages().size());
    }

    @Test
    void passagesLeaveWithCitationsAndWithoutReservedKeys() {
        index("policy", "Hotel stays are reimbursed up to the city rate.", Map.of("lang", "en"));

        RetrievalResponse response = service().retrieve(decide(null), runtime(null), vectorQuery("hotel"));

        RetrievalResponse.CitedPassage passage = response.passages().get(0);
        assertFalse(passage.metadata().keySet().stream().anyMatch(ReservedKeys::isReserved), passage.metadata().toString());
        assertEquals(1, passage.citation().index());
        assertEquals("policy", passage.citation().documentId());
        assertTrue(response.context().text().contains("[1]"), response.context().text());
        assertEquals(1, response.diagnostics().isolation().returned());
        assertFalse(response.diagnostics().corpusEmpty());
    }

    @Test
    void anEmptyNamespaceSaysSo() {
        RetrievalResponse response = service().retrieve(decide(null), runtime(null), vectorQuery("anything"));
        assertTrue(response.passages().isEmpty());
        assertTrue(response.diagnostics().corpusEmpty());
    }

    @Test
    void aTenantDefaultMinScoreFloorsSingleLegModesOnlyAndHybridKeepsServing() {
        try (VectorStore lucene = plugins.create(VectorStoreProvider.class, "lucene", PluginContext.of(data.resolve("lucene"), "test"), Map.of())) {
            index(lucene, "policy", "Hotel stays are reimbursed up to the city rate.", Map.of());
            index(lucene, "harbour", "The harbour closes at midnight; ferries leave hourly.", Map.of());
            index(lucene, "lanterns", "Oil lanterns need their wicks trimmed every week.", Map.of());
            double floor = 0.8; // bge-small puts unrelated short texts near 0.7, so a floor that separates sits above that
            RetrievalDefaults floored = new RetrievalDefaults("hybrid", 5, floor, null, false);
            TenantRuntime runtime = new TenantRuntime(tenant(floored).definition(), lucene, embedder, null, null, ChunkingOptions.defaults());
            String query = "hotel reimbursement";
            List<RetrievalResponse.CitedPassage> unfloored = service().retrieve(AccessDecision.decide(alice, tenant(), ACME, null, null), runtime, vectorQuery(query)).passages();
            List<String> aboveFloor = unfloored.stream().filter(p -> p.score() >= floor).map(p -> p.citation().documentId()).toList();
            assertFalse(aboveFloor.isEmpty(), "precondition: a passage scores above the floor: " + unfloored);
            assertTrue(aboveFloor.size() < unfloored.size(), "precondition: a passage scores below the floor: " + unfloored);

            RetrievalResponse hybrid = service().retrieve(AccessDecision.decide(alice, tenant(floored), ACME, null, null), runtime, RetrieveCommand.of(query));
            assertEquals(unfloored.size(), hybrid.passages().size(), "the default floor is not applied to fused scores: " + hybrid.passages());
            RetrievalResponse vector = service().retrieve(AccessDecision.decide(alice, tenant(floored), ACME, null, null), runtime, vectorQuery(query));
            assertEquals(aboveFloor, vector.passages().stream().map(p -> p.citation().documentId()).toList(), "vector mode honours it");

            RetrieveCommand explicitHybridFloor = new RetrieveCommand(query, "hybrid", 5, null, floor, null, false, 0, null);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> service().retrieve(AccessDecision.decide(alice, tenant(floored), ACME, null, null), runtime, explicitHybridFloor));
            assertTrue(refused.getMessage().contains("cannot apply to a hybrid retrieval"), refused.getMessage());
        }
    }

    private RetrievalService service() {
        return new RetrievalService((ns, ids) -> {
            Map<String, Integer> versions = new java.util.HashMap<>();
            ids.forEach(id -> versions.put(id, 1));
            return versions;
        }, 4);
    }

    private static RetrieveCommand vectorQuery(String query) {
        return new RetrieveCommand(query, "vector", 5, null, null, null, false, 0, null);
    }

    private Tenant tenant() {
        return tenant(new RetrievalDefaults("vector", 5, null, null, false));
    }

    private Tenant tenant(RetrievalDefaults defaults) {
        TenantDefinition definition = new TenantDefinition("acme", "ACME", TenantState.ACTIVE, new PluginChoice("reference", Map.of()),
                new PluginChoice("onnx", Map.of()), null, defaults, Quotas.UNLIMITED, AccessPolicy.NONE);
        return new Tenant(definition, embedder.fingerprint().id(), Instant.now(), Instant.now(), 1);
    }

    private AccessDecision decide(RetrievalFilterHook hook) {
        return AccessDecision.decide(alice, tenant(), ACME, null, hook);
    }

    private TenantRuntime runtime(RetrievalFilterHook hook) {
        return new TenantRuntime(tenant().definition(), recordingStore, embedder, null, hook, ChunkingOptions.defaults());
    }

    private void index(String documentId, String text, Map<String, Object> metadata) {
        index(reference, documentId, text, metadata);
    }

    private static void index(VectorStore store, String documentId, String text, Map<String, Object> metadata) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk(documentId + ":0", documentId, 0, text, List.of(), metadata), ACME, documentId, 1);
        Map<String, Object> stamped = new java.util.HashMap<>(chunk.metadata());
        stamped.put(ReservedKeys.EMBEDDER, embedder.fingerprint().id());
        store.upsert(ACME, List.of(new EmbeddedChunk(chunk.withMetadata(stamped), embedder.embedDocuments(List.of(text)).get(0))));
    }

    /** The reference store, with every call counted and every search request kept. */
    private VectorStore recording(VectorStore target) {
        return (VectorStore) Proxy.newProxyInstance(VectorStore.class.getClassLoader(), new Class<?>[] {VectorStore.class}, (proxy, method, args) -> {
            if (!method.getName().equals("capabilities")) {
                storeCalls.incrementAndGet();
            }
            if (method.getName().equals("search")) {
                searches.add((SearchRequest) args[1]);
            }
            try {
                return method.invoke(target, args);
            } catch (java.lang.reflect.InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

}
