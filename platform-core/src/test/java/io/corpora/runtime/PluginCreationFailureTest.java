package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.plugin.loader.PluginKind;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.GenerationRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant plugin this server cannot create fails as one {@link PluginCreationException} naming the tenant, the kind and
 * the provider — on the real plugins: an unknown provider, a refused option, an unset {@code ${config:…}} reference, a
 * pgvector database that does not answer — and its message keeps the plugin's words (paths, hosts) out. A store or
 * embedder that fails fails the tenant's runtime; a reranker or generator fails only the calls that need it.
 */
class PluginCreationFailureTest {

    private static final PluginChoice LUCENE = new PluginChoice("lucene", Map.of());
    private static final PluginChoice ONNX = new PluginChoice("onnx", Map.of());
    /** Nothing answers on port 1. */
    private static final PluginChoice UNREACHABLE = new PluginChoice("pgvector",
            Map.of("jdbcUrl", "jdbc:postgresql://127.0.0.1:1/nowhere?user=postgres&connectTimeout=2"));

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    @TempDir
    Path data;

    @Test
    void anUnknownStoreProviderNamesTheTenantKindAndProviderButNotThePluginsDirectory() {
        PluginCreationException e = failure(tenant(new PluginChoice("nope", Map.of()), ONNX));
        assertEquals(PluginKind.VECTOR_STORE, e.kind());
        assertEquals("nope", e.provider());
        assertEquals("acme", e.tenantId());
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(real.plugins().directory().toString()), "the cause keeps the detail for the log");
        assertFalse(e.getMessage().contains(real.plugins().directory().toString()), e.getMessage());
        assertEquals("the vector-store plugin 'nope' of tenant 'acme' could not be started on this server", e.getMessage());
        assertTrue(e.detailForOperator().startsWith("IllegalArgumentException: no vector-store provider named 'nope'"), e.detailForOperator());
    }

    @Test
    void aRefusedOptionAndAnUnsetReferenceAreCreationFailuresOfTheirPlugin() {
        PluginCreationException refused = failure(tenant(LUCENE, new PluginChoice("onnx", Map.of("bogus", "1"))));
        assertEquals(PluginKind.EMBEDDER, refused.kind());
        assertInstanceOf(InvalidConfigException.class, refused.getCause());

        PluginCreationException unset = failure(tenant(LUCENE, new PluginChoice("onnx", Map.of("modelPath", "${config:corpora.test.unset.key}"))));
        assertEquals(PluginKind.EMBEDDER, unset.kind());
        assertTrue(unset.getCause().getMessage().contains("corpora.test.unset.key"), unset.getCause().getMessage());
    }

    @Test
    void aStoreWhoseDatabaseDoesNotAnswerFailsWithoutNamingTheHost() {
        PluginCreationException e = failure(tenant(UNREACHABLE, ONNX));
        assertEquals(PluginKind.VECTOR_STORE, e.kind());
        assertEquals("pgvector", e.provider());
        assertNotNull(e.getCause());
        assertFalse(e.getMessage().contains("127.0.0.1"), e.getMessage());

        TenantRuntimes runtimes = real.open(data);
        assertEquals(PluginKind.VECTOR_STORE, assertThrows(PluginCreationException.class,
                () -> runtimes.storeOf(tenant(UNREACHABLE, ONNX))).kind(), "the store alone fails the same way");
    }

    /** A creation that failed is not tried again for a few seconds: requests fail at once instead of each waiting out a timeout. */
    @Test
    void aFailedCreationIsNotRetriedUntilItsPauseHasPassed() {
        AtomicLong clock = new AtomicLong();
        TenantRuntimes runtimes = real.open(data, TenantRuntimes.WorkingSetPolicy.DEFAULT, clock::get);
        TenantDefinition unreachable = tenant(UNREACHABLE, ONNX);

        Throwable first = assertThrows(PluginCreationException.class, () -> runtimes.runtime(unreachable)).getCause();
        clock.addAndGet(TenantRuntimes.CREATION_RETRY_PAUSE.toNanos() - 1);
        assertSame(first, assertThrows(PluginCreationException.class, () -> runtimes.runtime(unreachable)).getCause(),
                "within the pause: the same failure, no new attempt");
        clock.addAndGet(1);
        assertNotSame(first, assertThrows(PluginCreationException.class, () -> runtimes.runtime(unreachable)).getCause(),
                "after it: tried again");
    }

    /**
     * A reranker or generator that cannot be started fails the calls that need it, not the tenant: the runtime is made,
     * its store and embedder serve, and the optional plugin's calls throw the creation failure naming it.
     */
    @Test
    void aRerankerOrGeneratorThatCannotStartFailsOnlyItsOwnCalls() {
        TenantRuntimes runtimes = real.open(data);
        TenantRuntime runtime = runtimes.runtime(new TenantDefinition("acme", null, null, LUCENE, ONNX,
                new PluginChoice("nope-reranker", Map.of()), null, null, null, null, new PluginChoice("nope-generator", Map.of()), null));

        assertEquals(384, runtime.embedder().embedQuery("lanterns").length, "the embedder serves");
        assertEquals(0, runtime.store().count(Namespace.of("acme"), MetadataFilter.all()), "the store serves");
        PluginCreationException reranker = assertThrows(PluginCreationException.class, () -> runtime.reranker().score("q", List.of("a")));
        assertEquals(PluginKind.RERANKER, reranker.kind());
        assertEquals("nope-reranker", reranker.provider());
        GenerationRequest request = GenerationRequest.of(ChatMessage.user("q"));
        PluginCreationException generator = assertThrows(PluginCreationException.class, () -> runtime.generator().generate(request));
        assertEquals(PluginKind.GENERATOR, generator.kind());
        assertEquals("nope-generator", generator.provider());
        assertEquals(PluginKind.GENERATOR, assertThrows(PluginCreationException.class, () -> runtime.generator().stream(request, delta -> {}))
                .kind(), "a stream fails as it is asked for, not later inside it");
        assertEquals(PluginKind.GENERATOR, assertThrows(PluginCreationException.class, () -> runtime.generator().modelId()).kind(),
                "what an ask asks first (TenantView.requireGenerator), before it retrieves anything");
        assertSame(runtime, runtimes.runtime(runtime.definition()), "the runtime is kept: the next calls try the plugin again");
    }

    /** An operator's question, before any call: which of the tenant's plugins start here, and in whose words not. */
    @Test
    void startSaysWhichPluginsStartAndWhyTheOthersDoNot() {
        TenantRuntimes runtimes = real.open(data);
        TenantDefinition definition = new TenantDefinition("acme", null, null, UNREACHABLE, ONNX,
                new PluginChoice("nope-reranker", Map.of()), null, null, null, null, new PluginChoice("openai", Map.of("model", "m")), null);

        List<PluginStart> starts = runtimes.start(definition);
        assertEquals(List.of("store", "embedder", "reranker", "generator"), starts.stream().map(PluginStart::field).toList());
        assertFalse(starts.get(0).started());
        assertTrue(starts.get(0).problem().contains("127.0.0.1:1"), "the operator is told the plugin's own words: " + starts.get(0).problem());
        assertTrue(starts.get(1).started(), starts.get(1).toString());
        assertEquals(PluginKind.RERANKER, starts.get(2).kind());
        assertTrue(starts.get(2).problem().contains("no reranker provider named 'nope-reranker'"), starts.get(2).problem());
        assertTrue(starts.get(3).started(), starts.get(3).toString());
    }

    /** The plugin's words go to the operator, but a value that came from a reference (it may be a secret) shows as the reference. */
    @Test
    void aReferencedValueThePluginRepeatsShowsAsItsReference() {
        TenantRuntimes runtimes = real.open(data, key -> Optional.of("ftp://secret-host.example").filter(v -> key.equals("corpora.test.base")),
                System::nanoTime);
        TenantDefinition definition = new TenantDefinition("acme", null, null, LUCENE, ONNX, null, null, null, null, null,
                new PluginChoice("openai", Map.of("baseUrl", "${config:corpora.test.base}", "model", "m")), null);

        String problem = runtimes.start(definition).get(2).problem();
        assertTrue(problem.contains("got '${config:corpora.test.base}'"), problem);
        assertFalse(problem.contains("secret-host"), problem);
    }

    /** Until it is created, an optional plugin is tried again by the calls that need it, on the runtime already made. */
    @Test
    void anOptionalPluginThatCouldNotStartIsCreatedByALaterCall() {
        Map<String, String> config = new ConcurrentHashMap<>();
        TenantRuntimes runtimes = real.open(data, key -> Optional.ofNullable(config.get(key)), System::nanoTime);
        TenantRuntime runtime = runtimes.runtime(new TenantDefinition("acme", null, null, LUCENE, ONNX,
                new PluginChoice("probe-current", Map.of("delay", "${config:corpora.test.reranker.delay}")), null, null, null));

        assertThrows(PluginCreationException.class, () -> runtime.reranker().score("lanterns", List.of("lanterns at dusk")));
        config.put("corpora.test.reranker.delay", "0ms");
        assertArrayEquals(new double[] {1, 0}, runtime.reranker().score("lanterns", List.of("lanterns at dusk", "bread")), 0.0);
        assertSame(runtime, runtimes.runtime(runtime.definition()));
    }

    private PluginCreationException failure(TenantDefinition definition) {
        TenantRuntimes runtimes = real.open(data);
        return assertThrows(PluginCreationException.class, () -> runtimes.runtime(definition));
    }

    private static TenantDefinition tenant(PluginChoice store, PluginChoice embedder) {
        return new TenantDefinition("acme", null, null, store, embedder, null, null, null, null, null);
    }
}
