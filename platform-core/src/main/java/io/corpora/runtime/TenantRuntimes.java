package io.corpora.runtime;

import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.plugin.loader.PluginKind;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.runtime.guard.CallKind;
import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.engine.embed.QueryEmbeddingCache;
import io.corpora.runtime.guard.GuardedEmbedder;
import io.corpora.runtime.guard.GuardedFilterHook;
import io.corpora.runtime.guard.GuardedGenerator;
import io.corpora.runtime.guard.GuardedReranker;
import io.corpora.runtime.guard.GuardedVectorStore;
import io.corpora.runtime.guard.PluginGuards;
import io.corpora.spi.PluginProvider;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Builds and caches {@link TenantRuntime}s. Plugin instances are shared by (kind, provider, configuration), so ten
 * tenants on the default store and embedder share one Lucene store and one ONNX model; a tenant's runtime is
 * released when it becomes inactive or its definition changes.
 *
 * <p>A runtime never hands out the shared instances themselves: each is wrapped in a decorator bound to the tenant's own
 * {@link PluginGuards guard} (timeouts, retries, circuit breaker, bulkhead), so one tenant's hung or failing plugin trips
 * only that tenant's breaker and fills only that tenant's bulkhead, even when the instance is shared.
 *
 * <p>What a tenant holds open — its runtime, its guards, its namespaces in the stores — is bounded by the
 * {@link TenantWorkingSet}: every store call leases the tenant, and a tenant idle past the timeout or least recently used
 * beyond the bound is closed ({@link VectorStore#releaseTenant}) and reopened by its next call.
 */
public final class TenantRuntimes implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TenantRuntimes.class.getName());
    /** Leave room for [CLS] and [SEP]. */
    private static final int SPECIAL_TOKENS = 2;

    private final PluginRegistry plugins;
    private final Path dataDirectory;
    private final Function<String, Optional<String>> configSource;
    private final PluginGuards guards;
    private final QueryEmbeddingCache queryCache;
    private final DocumentEmbeddingCache documentCache;
    private final Map<String, Object> instances = new ConcurrentHashMap<>();
    /**
     * How long a plugin instance that failed to be created is not tried again: a tenant whose database does not answer
     * would otherwise have every request wait out the connection timeout and log another failure.
     */
    public static final java.time.Duration CREATION_RETRY_PAUSE = java.time.Duration.ofSeconds(5);
    /** Instance key → its last failed creation, for {@link #CREATION_RETRY_PAUSE}. */
    private final Map<String, FailedCreation> failedCreations = new ConcurrentHashMap<>();
    private final LongSupplier nanoTime;

    private record FailedCreation(long atNanos, RuntimeException cause) {}
    private final Map<String, TenantRuntime> runtimes = new ConcurrentHashMap<>();
    private final TenantWorkingSet workingSet;
    private final List<TenantReleaseListener> releaseListeners = new CopyOnWriteArrayList<>();
    /** Closes tenants off the request threads: those idle past the timeout, and those evicted beyond the bound. */
    private final ScheduledExecutorService closings;

    /** With the default working set ({@link WorkingSetPolicy#DEFAULT}). */
    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards) {
        this(plugins, dataDirectory, configSource, guards, WorkingSetPolicy.DEFAULT, new QueryEmbeddingCache(0));
    }

    /** @param queryCache where each tenant's query vectors are remembered (its scope is the tenant id) */
    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          QueryEmbeddingCache queryCache) {
        this(plugins, dataDirectory, configSource, guards, WorkingSetPolicy.DEFAULT, queryCache);
    }

    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          WorkingSetPolicy workingSetPolicy) {
        this(plugins, dataDirectory, configSource, guards, workingSetPolicy, new QueryEmbeddingCache(0));
    }

    /**
     * @param workingSetPolicy how many tenants stay open, and for how long unused
     * @param queryCache       where each tenant's query vectors are remembered (its scope is the tenant id)
     */
    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          WorkingSetPolicy workingSetPolicy, QueryEmbeddingCache queryCache) {
        this(plugins, dataDirectory, configSource, guards, workingSetPolicy, queryCache, System::nanoTime);
    }

    /** @param nanoTime the working set's clock (idle timeout, least recently used), {@link System#nanoTime} but in tests */
    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          WorkingSetPolicy workingSetPolicy, QueryEmbeddingCache queryCache, LongSupplier nanoTime) {
        this(plugins, dataDirectory, configSource, guards, workingSetPolicy, queryCache, DocumentEmbeddingCache.disabled(), nanoTime);
    }

    /** @param documentCache where each tenant's document vectors are remembered on disk at ingest (its key space is the tenant's) */
    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          WorkingSetPolicy workingSetPolicy, QueryEmbeddingCache queryCache, DocumentEmbeddingCache documentCache) {
        this(plugins, dataDirectory, configSource, guards, workingSetPolicy, queryCache, documentCache, System::nanoTime);
    }

    public TenantRuntimes(PluginRegistry plugins, Path dataDirectory, Function<String, Optional<String>> configSource, PluginGuards guards,
                          WorkingSetPolicy workingSetPolicy, QueryEmbeddingCache queryCache, DocumentEmbeddingCache documentCache,
                          LongSupplier nanoTime) {
        this.queryCache = java.util.Objects.requireNonNull(queryCache, "queryCache");
        this.documentCache = java.util.Objects.requireNonNull(documentCache, "documentCache");
        this.plugins = plugins;
        this.dataDirectory = dataDirectory;
        this.configSource = configSource;
        this.guards = java.util.Objects.requireNonNull(guards, "guards");
        this.nanoTime = nanoTime;
        this.closings = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "corpora-tenant-closer");
            t.setDaemon(true);
            return t;
        });
        this.workingSet = new TenantWorkingSet(workingSetPolicy.max(), workingSetPolicy.idleTimeout(), nanoTime, this::closeTenant, closings);
        long period = Math.max(1_000, Math.min(60_000, workingSetPolicy.idleTimeout().toMillis() / 10));
        closings.scheduleWithFixedDelay(this::closeIdle, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * How many tenants may hold resources open at once, and how long an unused one keeps them.
     * Server keys: {@code corpora.tenants.workingSet.max}, {@code corpora.tenants.idleTimeout}.
     */
    public record WorkingSetPolicy(int max, Duration idleTimeout) {
        public static final WorkingSetPolicy DEFAULT = new WorkingSetPolicy(256, Duration.ofMinutes(10));
    }

    /** The runtime for this definition, rebuilt if the definition changed since it was cached; marks the tenant used. */
    public TenantRuntime runtime(TenantDefinition definition) {
        // the lease makes the tenant a working-set member and waits out a close of it in progress
        try (TenantWorkingSet.Lease lease = workingSet.lease(definition.id())) {
            TenantRuntime cached = runtimes.get(definition.id());
            if (cached != null && cached.definition().equals(definition)) {
                return cached;
            }
            TenantRuntime built = build(definition);
            runtimes.put(definition.id(), built);
            return built;
        }
    }

    /** Forgets a tenant's runtime (shared plugin instances stay for other tenants). */
    public void release(String tenantId) {
        runtimes.remove(tenantId);
    }

    /**
     * A tenant that stopped serving (INACTIVE, OFFLOADED, DELETING): closes everything it holds open — its namespaces in
     * every store, its runtime, its breakers and bulkheads — now, or when its calls in flight end.
     */
    public void deactivate(String tenantId) {
        runtimes.remove(tenantId);
        workingSet.close(tenantId);
        guards.forget(tenantId);
    }

    /**
     * Offloads a tenant that no longer serves (the caller refused its traffic first): waits for its calls in flight,
     * closes everything it holds, then asks its store to move its data aside. False when the store cannot offload.
     */
    public boolean offload(TenantDefinition definition) {
        VectorStore store = storeOf(definition);
        boolean[] offloaded = new boolean[1];
        workingSet.runExclusive(definition.id(), () -> {
            closeTenant(definition.id());
            offloaded[0] = store.offloadTenant(definition.id());
        });
        return offloaded[0];
    }

    /** Brings an offloaded tenant's data back into its store (before it serves again). */
    public void restore(TenantDefinition definition) {
        VectorStore store = storeOf(definition);
        workingSet.runExclusive(definition.id(), () -> {
            closeTenant(definition.id());
            store.restoreTenant(definition.id());
        });
    }

    /** The tenant's store alone (a purge, an offload): nothing else of its runtime is created. */
    public VectorStore storeOf(TenantDefinition definition) {
        return instance(definition.id(), PluginKind.VECTOR_STORE, VectorStoreProvider.class, definition.store(),
                () -> storeLocation(definition.store()).directoryName());
    }

    /**
     * Starts each of the tenant's plugins on this server that has not started yet — as the tenant's calls would, so a
     * failed start is not tried again within {@link #CREATION_RETRY_PAUSE} — and says which did, in the definition's
     * order. Opens none of the tenant's namespaces. For operators: a problem is the plugin's own words.
     */
    public List<PluginStart> start(TenantDefinition definition) {
        List<PluginStart> starts = new java.util.ArrayList<>();
        starts.add(startOne("store", PluginKind.VECTOR_STORE, definition.store(), () -> storeOf(definition)));
        starts.add(startOne("embedder", PluginKind.EMBEDDER, definition.embedder(), () -> embedderOf(definition)));
        if (definition.reranker() != null) {
            starts.add(startOne("reranker", PluginKind.RERANKER, definition.reranker(), () -> rerankerOf(definition)));
        }
        if (definition.generator() != null) {
            starts.add(startOne("generator", PluginKind.GENERATOR, definition.generator(), () -> generatorOf(definition)));
        }
        if (definition.access().filterHook() != null) {
            starts.add(startOne("access/filterHook", PluginKind.RETRIEVAL_FILTER_HOOK, definition.access().filterHook(),
                    () -> filterHookOf(definition)));
        }
        return starts;
    }

    private static PluginStart startOne(String field, PluginKind kind, PluginChoice choice, Supplier<?> creation) {
        try {
            creation.get();
            return new PluginStart(field, kind, choice.provider(), null);
        } catch (PluginCreationException e) {
            return new PluginStart(field, kind, choice.provider(), e.detailForOperator());
        }
    }

    /** Forgets a deleted tenant: its runtime and its breakers and bulkheads. */
    public void forget(String tenantId) {
        runtimes.remove(tenantId);
        workingSet.close(tenantId);
        guards.forget(tenantId);
    }

    public TenantWorkingSet workingSet() {
        return workingSet;
    }

    /** Tells {@code listener} of every tenant leaving the working set, after its resources are closed. */
    public void addReleaseListener(TenantReleaseListener listener) {
        releaseListeners.add(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /** Closes the tenants idle past the timeout (also run periodically). */
    public int closeIdle() {
        try {
            return workingSet.closeIdle();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing idle tenants failed", e);
            return 0;
        }
    }

    /** The working set's closer: no call on the tenant is in flight. Every store instance, since a tenant may have used several. */
    private void closeTenant(String tenantId) {
        runtimes.remove(tenantId);
        guards.forget(tenantId);
        for (Object instance : instances.values()) {
            if (instance instanceof VectorStore store) {
                store.releaseTenant(tenantId);
            }
        }
        for (TenantReleaseListener listener : releaseListeners) {
            try {
                listener.released(tenantId);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "a release listener failed on tenant '" + tenantId + "'", e);
            }
        }
    }

    public PluginGuards guards() {
        return guards;
    }

    /** The shared store instances, e.g. for readiness checks. */
    public Map<String, VectorStore> stores() {
        Map<String, VectorStore> stores = new TreeMap<>();
        instances.forEach((key, instance) -> {
            if (instance instanceof VectorStore store) {
                stores.put(key, store);
            }
        });
        return stores;
    }

    public PluginRegistry plugins() {
        return plugins;
    }

    /** Checks a definition's plugin choices against this server's plugins and configuration, opening nothing. */
    public PluginChoiceCheck choiceCheck() {
        return new PluginChoiceCheck(plugins, configSource);
    }

    /** Where this store choice keeps its data (for guards comparing two definitions). */
    public StoreLocation storeLocation(PluginChoice store) {
        return StoreLocation.of(plugins, store);
    }

    private TenantRuntime build(TenantDefinition definition) {
        String tenant = definition.id();
        StoreLocation location = creating(tenant, PluginKind.VECTOR_STORE, definition.store(), () -> {
            StoreLocation at = storeLocation(definition.store());
            StoreLocation.moveLegacyDirectory(dataDirectory.resolve(PluginKind.VECTOR_STORE.label()), definition.store(), at, tenant);
            return at;
        });
        VectorStore store = instance(tenant, PluginKind.VECTOR_STORE, VectorStoreProvider.class, definition.store(), location::directoryName);
        Embedder embedder = embedderOf(definition);
        // The filter hook is made now: every data-plane call evaluates it, and one that will not start fails them all closed.
        RetrievalFilterHook hook = definition.access().filterHook() == null ? null : filterHookOf(definition);
        ChunkingOptions chunking = chunkingFor(embedder);
        return new TenantRuntime(definition,
                new GuardedVectorStore(new WorkingSetVectorStore(store, workingSet, tenant),
                        guards.guard(tenant, CallKind.STORE, definition.store().provider())),
                // The caches sit outside the guard: a hit costs no guarded call.
                queryCache.wrap(queryCacheScope(definition), documentCache.wrap(tenant, definition.embedder().config(),
                        new GuardedEmbedder(embedder, guards.guard(tenant, CallKind.EMBEDDER, definition.embedder().provider())))),
                definition.reranker() == null ? null : new GuardedReranker(new CreatedOnFirstCall<>(() -> rerankerOf(definition)),
                        guards.guard(tenant, CallKind.RERANKER, definition.reranker().provider())),
                hook == null ? null : new GuardedFilterHook(hook, guards.guard(tenant, CallKind.FILTER_HOOK, definition.access().filterHook().provider())),
                chunking,
                definition.generator() == null ? null : new GuardedGenerator(new CreatedOnFirstCall<>(() -> generatorOf(definition)),
                        guards.guard(tenant, CallKind.GENERATOR, definition.generator().provider()), guards.executor()));
    }

    // The shared instance of each of the tenant's plugins but its store (whose instance is keyed by its location).

    private Embedder embedderOf(TenantDefinition definition) {
        return instance(definition.id(), PluginKind.EMBEDDER, EmbedderProvider.class, definition.embedder());
    }

    private Reranker rerankerOf(TenantDefinition definition) {
        return instance(definition.id(), PluginKind.RERANKER, RerankerProvider.class, definition.reranker());
    }

    private Generator generatorOf(TenantDefinition definition) {
        return instance(definition.id(), PluginKind.GENERATOR, GeneratorProvider.class, definition.generator());
    }

    private RetrievalFilterHook filterHookOf(TenantDefinition definition) {
        return instance(definition.id(), PluginKind.RETRIEVAL_FILTER_HOOK, RetrievalFilterHookProvider.class, definition.access().filterHook());
    }

    /** How a tenant's documents are cut: the default window, and no chunk over its embedder's input limit when it has a tokenizer. */
    public static ChunkingOptions chunkingFor(Embedder embedder) {
        ChunkingOptions chunking = ChunkingOptions.defaults();
        if (embedder.tokenCounter().isPresent() && embedder.maxInputTokens() > SPECIAL_TOKENS) {
            chunking = chunking.withTokenLimit(embedder.tokenCounter().get(), embedder.maxInputTokens() - SPECIAL_TOKENS);
        }
        return chunking;
    }

    /**
     * The tenant and its embedder's settings: one model (one fingerprint) under another query instruction, say, makes
     * other query vectors, so a tenant whose embedder settings change never reads the vectors of the old ones.
     */
    static String queryCacheScope(TenantDefinition definition) {
        return definition.id() + " " + definition.embedder().provider() + new java.util.TreeMap<>(definition.embedder().config());
    }

    private <T> T instance(String tenantId, PluginKind kind, Class<? extends PluginProvider<T>> providerType, PluginChoice choice) {
        return instance(tenantId, kind, providerType, choice, () -> StoreLocation.directoryName(choice.provider(), choice.config()));
    }

    /**
     * The shared instance for this exact configuration. {@code directoryName} names its data directory: for a store, its
     * location alone, so instances that differ in other options share their data; for other kinds, all options.
     */
    @SuppressWarnings("unchecked")
    private <T> T instance(String tenantId, PluginKind kind, Class<? extends PluginProvider<T>> providerType, PluginChoice choice,
                           Supplier<String> directoryName) {
        return creating(tenantId, kind, choice, () -> {
            Map<String, String> config = new TreeMap<>(SecretReferences.resolve(choice.config(), configSource));
            String key = kind.label() + "/" + choice.provider() + "/" + StoreLocation.sha256(config.toString());
            Object created = instances.get(key);
            if (created != null) {
                return (T) created;
            }
            FailedCreation failed = failedCreations.get(key);
            if (failed != null && nanoTime.getAsLong() - failed.atNanos() < CREATION_RETRY_PAUSE.toNanos()) {
                throw failed.cause(); // the same failure, not another attempt
            }
            try {
                T instance = (T) instances.computeIfAbsent(key, k -> {
                    Path directory = dataDirectory.resolve(kind.label()).resolve(directoryName.get());
                    PluginContext context = PluginContext.of(directory, "corpora.plugin." + choice.provider());
                    LOG.info("Creating " + kind.label() + " '" + choice.provider() + "' with data directory " + directory);
                    return plugins.create(providerType, choice.provider(), context, config);
                });
                failedCreations.remove(key);
                return instance;
            } catch (RuntimeException e) {
                failedCreations.put(key, new FailedCreation(nanoTime.getAsLong(), e));
                throw e;
            }
        });
    }

    /** Runs a step of creating a tenant's plugin; whatever it throws becomes the {@link PluginCreationException} naming it. */
    private <T> T creating(String tenantId, PluginKind kind, PluginChoice choice, Supplier<T> step) {
        try {
            return step.get();
        } catch (PluginCreationException e) {
            throw e;
        } catch (RuntimeException e) {
            String words = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            throw new PluginCreationException(tenantId, kind, choice.provider(), e,
                    SecretReferences.withoutReferencedValues(words, choice.config(), configSource));
        }
    }

    @Override
    public void close() {
        closings.shutdown(); // a close under way finishes (the stores' own close waits for it); no more idle sweeps
        runtimes.clear();
        instances.forEach((key, instance) -> {
            if (instance instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    LOG.log(Level.WARNING, "closing " + key, e);
                }
            }
        });
        instances.clear();
    }
}
