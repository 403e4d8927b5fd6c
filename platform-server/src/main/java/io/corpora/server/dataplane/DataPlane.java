package io.corpora.server.dataplane;

import io.corpora.answer.AnswerService;
import io.corpora.server.metrics.AnswerMetrics;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.IngestionService;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveLimits;
import io.corpora.runtime.TenantRuntime;
import io.corpora.runtime.TenantRuntimes;
import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardedDocumentLoader;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.PluginGuards;
import io.corpora.server.metrics.IngestMetrics;
import io.corpora.server.metrics.PluginCallMetrics;
import io.corpora.server.installedplugins.PluginService;
import io.corpora.server.persistence.ControlPlaneLocation;
import io.corpora.server.rest.ProblemException;
import io.corpora.server.security.CallerScope;
import io.corpora.access.TenantView;
import io.corpora.spi.FilterLimits;
import io.corpora.spi.filter.Actor;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.RateLimiter;
import io.corpora.tenancy.RateLimits;
import io.corpora.spi.Namespace;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Wires the pure-Java data plane (runtimes, ingestion, retrieval) to the container: plugins, the control-plane
 * repositories and configuration. Tenant lookups and the namespace binding happen here, once, for every route.
 */
@ApplicationScoped
public class DataPlane {

    private static final Logger LOG = Logger.getLogger(DataPlane.class.getName());

    @Inject
    PluginService plugins;

    @Inject
    Instance<TenantRepository> tenantRepository;

    @Inject
    Instance<DocumentRegistry> documentRegistry;

    @Inject
    Instance<JobRepository> jobRepository;

    @Inject
    PluginCallMetrics pluginCallMetrics;

    @Inject
    IngestMetrics ingestMetrics;

    @Inject
    AnswerMetrics answerMetrics;

    /** How long a query transform's model call may take before ask falls back to the question alone (milliseconds). */
    @Inject
    @ConfigProperty(name = "corpora.answers.transformTimeout", defaultValue = "10000")
    long transformTimeoutMillis;

    @Inject
    io.corpora.server.metrics.QueryCacheMetrics queryCacheMetrics;

    @Inject
    io.corpora.server.metrics.TenantMetricSeries tenantMetricSeries;

    /** Query vectors remembered server-wide, per tenant and embedder fingerprint; 0 disables the cache. */
    @Inject
    @ConfigProperty(name = "corpora.retrieve.queryCache.entries", defaultValue = "10000")
    int queryCacheEntries;

    /** Where document vectors are remembered across ingests and restarts; unset (the default): no such cache. */
    @Inject
    @ConfigProperty(name = "corpora.ingest.embeddingCache.dir")
    Optional<String> documentCacheDirectory;

    /** Bytes on disk per embedding model (two generations of half each); 1 GiB is ~680,000 vectors of 384 dimensions. */
    @Inject
    @ConfigProperty(name = "corpora.ingest.embeddingCache.maxBytes", defaultValue = "1073741824")
    long documentCacheMaxBytes;

    @Inject
    io.corpora.server.metrics.DocumentCacheMetrics documentCacheMetrics;

    private io.corpora.engine.embed.DocumentEmbeddingCache documentCache;

    /**
     * Threads for guarded plugin calls (so a caller can stop waiting at the timeout). A pool of their own: on Liberty's
     * shared pool, request threads waiting for plugin calls queued behind them starve until the pool grows. Plain
     * daemon threads, not a ManagedThreadFactory's: plugins see only the SPI and the JDK, so they need no container
     * context, and Liberty defers contextual tasks until the application has started, so boot-time recovery (which
     * runs before that) would wait out its own guard's timeout. Unbounded by design; the per-tenant bulkheads bound it.
     */
    private ExecutorService pluginCalls;

    @Inject
    @ConfigProperty(name = "corpora.data.dir")
    Optional<String> dataDirectory;

    @Inject
    @ConfigProperty(name = "corpora.retrieval.overFetch", defaultValue = "4")
    int overFetch;

    @Inject
    @ConfigProperty(name = "corpora.ingest.maxDocumentBytes", defaultValue = "52428800")
    long maxDocumentBytes;

    @Inject
    @ConfigProperty(name = "corpora.ingest.maxChunksPerDocument", defaultValue = "20000")
    int maxChunksPerDocument;

    @Inject
    @ConfigProperty(name = "corpora.ingest.maxMetadataKeys", defaultValue = "64")
    int maxMetadataKeys;

    @Inject
    @ConfigProperty(name = "corpora.ingest.maxMetadataBytes", defaultValue = "16384")
    long maxMetadataBytes;

    @Inject
    @ConfigProperty(name = "corpora.retrieve.maxQueryChars", defaultValue = "4096")
    int maxQueryChars;

    @Inject
    @ConfigProperty(name = "corpora.retrieve.maxQueryTerms", defaultValue = "256")
    int maxQueryTerms;

    @Inject
    @ConfigProperty(name = "corpora.retrieve.maxFilterNodes", defaultValue = "64")
    int maxFilterNodes;

    @Inject
    @ConfigProperty(name = "corpora.retrieve.maxFilterDepth", defaultValue = "8")
    int maxFilterDepth;

    @Inject
    @ConfigProperty(name = "corpora.retrieve.maxFilterValues", defaultValue = "1024")
    int maxFilterValues;

    /** At most this many tenants hold their namespaces, runtime and guards open; the least recently used beyond it close. */
    @Inject
    @ConfigProperty(name = "corpora.tenants.workingSet.max", defaultValue = "256")
    int workingSetMax;

    /** A tenant unused this long (ISO-8601 duration) closes what it holds; its next call reopens it. */
    @Inject
    @ConfigProperty(name = "corpora.tenants.idleTimeout", defaultValue = "PT10M")
    String idleTimeout;

    private volatile RetrieveLimits retrieveLimits;

    /** Where the per-tenant buckets live: {@code auto} (the default), {@code local} or {@code control-plane} ({@link RateLimitStore}). */
    @Inject
    @ConfigProperty(name = RateLimitStore.SETTING, defaultValue = "auto")
    String rateLimitStore;

    @Inject
    Instance<io.corpora.server.persistence.JpaRateLimits> sharedRateLimits;

    @Inject
    ControlPlaneLocation controlPlane;

    private final RateLimiter localRateLimits = new RateLimiter(java.time.Clock.systemUTC());

    private volatile RateLimitStore rateLimitChoice;

    /** Resolves the rate-limit store at start-up: a bad setting fails the deployment, not the first limited call. */
    void chooseRateLimitStore(@Observes @Initialized(ApplicationScoped.class) Object event) {
        rateLimitChoice();
    }

    private RateLimitStore rateLimitChoice() {
        RateLimitStore choice = rateLimitChoice;
        if (choice == null) {
            choice = RateLimitStore.choose(rateLimitStore, controlPlane.url());
            LOG.info("Rate-limit buckets: " + (choice == RateLimitStore.LOCAL ? "in this process (" : "in the control plane (")
                    + RateLimitStore.SETTING + "=" + rateLimitStore + ")");
            rateLimitChoice = choice;
        }
        return choice;
    }

    private RateLimits rateLimits() {
        return rateLimitChoice() == RateLimitStore.LOCAL || !sharedRateLimits.isResolvable() ? localRateLimits : sharedRateLimits.get();
    }

    private volatile Services services;

    private record Services(TenantRuntimes runtimes, IngestionService ingestion, RetrievalService retrieval, AnswerService answers) {}

    private Services services() {
        Services current = services;
        if (current == null) {
            synchronized (this) {
                if (services == null) {
                    Path data = dataDirectory();
                    Function<String, Optional<String>> config =
                            key -> ConfigProvider.getConfig().getOptionalValue(key, String.class);
                    if (pluginCalls == null) {
                        pluginCalls = Executors.newCachedThreadPool(pluginCallThreads());
                    }
                    PluginGuards guards = new PluginGuards(kind -> GuardPolicy.configured(kind, config),
                            GuardContext.system(pluginCalls, pluginCallMetrics));
                    io.corpora.engine.embed.QueryEmbeddingCache queryCache = new io.corpora.engine.embed.QueryEmbeddingCache(queryCacheEntries);
                    queryCacheMetrics.register(queryCache);
                    documentCache = documentCacheDirectory.filter(d -> !d.isBlank())
                            .map(d -> io.corpora.engine.embed.DocumentEmbeddingCache.at(Path.of(d), documentCacheMaxBytes))
                            .orElseGet(io.corpora.engine.embed.DocumentEmbeddingCache::disabled);
                    documentCacheMetrics.register(documentCache);
                    TenantRuntimes runtimes = new TenantRuntimes(plugins.registry(), data, config, guards, workingSetPolicy(), queryCache,
                            documentCache);
                    tenantMetricSeries.bind(runtimes); // per-tenant series live as long as the tenant is in the working set
                    DocumentLoaders loaders = new DocumentLoaders(plugins.registry(), data);
                    IngestLimits limits = new IngestLimits(maxDocumentBytes, maxChunksPerDocument, IngestLimits.DEFAULT.embedBatchSize(),
                            guards.policy(CallKind.LOADER).timeout(), maxMetadataKeys, maxMetadataBytes);
                    RetrievalService retrieval = new RetrievalService((namespace, ids) -> registry().activeVersions(namespace, ids), overFetch, pluginCalls);
                    services = new Services(runtimes, new IngestionService(registry(), tenants(), loaders, limits, ingestMetrics,
                            (tenant, provider, loader) -> new GuardedDocumentLoader(loader, guards.guard(tenant, CallKind.LOADER, provider))),
                            retrieval, new AnswerService(retrieval, java.time.Duration.ofMillis(Math.max(1, transformTimeoutMillis)), answerMetrics));
                }
                current = services;
            }
        }
        return current;
    }

    private TenantRuntimes.WorkingSetPolicy workingSetPolicy() {
        java.time.Duration idle;
        try {
            idle = java.time.Duration.parse(idleTimeout);
        } catch (java.time.format.DateTimeParseException e) {
            throw new IllegalArgumentException("corpora.tenants.idleTimeout must be an ISO-8601 duration such as PT10M, got '" + idleTimeout + "'", e);
        }
        if (workingSetMax < 1 || idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("corpora.tenants.workingSet.max must be >= 1 and corpora.tenants.idleTimeout positive, got "
                    + workingSetMax + " and " + idleTimeout);
        }
        return new TenantRuntimes.WorkingSetPolicy(workingSetMax, idle);
    }

    private static java.util.concurrent.ThreadFactory pluginCallThreads() {
        java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, "corpora-plugin-call-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    public Path dataDirectory() {
        return dataDirectory.map(Path::of).orElseGet(() -> Path.of(System.getProperty("server.output.dir", "."), "data"));
    }

    public long maxDocumentBytes() {
        return maxDocumentBytes;
    }

    /** What one retrieval may ask: {@code corpora.retrieve.maxQueryChars}, {@code maxQueryTerms}, {@code maxFilter*}. */
    public RetrieveLimits retrieveLimits() {
        RetrieveLimits current = retrieveLimits;
        if (current == null) {
            current = new RetrieveLimits(maxQueryChars, maxQueryTerms, new FilterLimits(maxFilterNodes, maxFilterDepth, maxFilterValues));
            retrieveLimits = current;
        }
        return current;
    }

    /** Refuses (400) a document whose metadata cannot be stored, before the request is accepted. */
    public void validateIngest(io.corpora.ingest.IngestRequest request) {
        ingestion().validate(request);
    }

    public IngestionService ingestion() {
        return services().ingestion();
    }

    public RetrievalService retrieval() {
        return services().retrieval();
    }

    public TenantRuntimes runtimes() {
        return services().runtimes();
    }

    /** The tenant, if it exists and is ACTIVE; 404 or 409 otherwise. */
    public Tenant activeTenant(String tenantId) {
        Tenant tenant = tenants().find(tenantId).orElseThrow(() -> new ProblemException(404, "tenant-not-found", "Tenant not found",
                "tenant '" + tenantId + "' does not exist"));
        if (tenant.state() != TenantState.ACTIVE) {
            services().runtimes().deactivate(tenantId);
            throw new ProblemException(409, "tenant-not-active", "Tenant not active",
                    "tenant '" + tenantId + "' is " + tenant.state() + "; its data-plane calls are refused until it is ACTIVE again");
        }
        return tenant;
    }

    public TenantRuntime runtime(Tenant tenant) {
        return services().runtimes().runtime(tenant.definition());
    }

    /**
     * The access-checked view of one data-plane request, the only way a route reads or changes tenant data. Checks the
     * token against the path tenant and roles (403), the tenant's state (404/409), its request quota (429) and the
     * partition (400/403), in that order, so nothing about another tenant is looked up for a forged path; then makes
     * the request's {@link AccessDecision}, evaluating the tenant's filter hook for the actor once (403
     * {@code access-filter-failed} if it fails, before anything is read).
     */
    public TenantView view(CallerScope caller, String tenantId, String partition, String... roles) {
        Actor actor = caller.actorFor(tenantId, roles);
        Tenant tenant = activeTenant(tenantId);
        limitRequests(tenant);
        String boundPartition = caller.boundPartition();
        Namespace namespace = namespace(tenant, partition, boundPartition);
        TenantRuntime runtime = runtime(tenant);
        AccessDecision access = AccessDecision.decide(actor, tenant, namespace, boundPartition, runtime.filterHook());
        return new TenantView(access, runtime, registry(), jobs(), retrieval(), ingestion(), services().answers());
    }

    /**
     * The view of an evaluation run by a tenant-admin as a chosen actor: the caller's subject with the given ACL groups
     * (the caller's own when null) and reader role, in the given partition (which a partition-bound caller cannot
     * leave). The tenant's filter hook decides for that actor, so the evaluation scores what that actor would retrieve.
     */
    public TenantView evaluationView(CallerScope caller, String tenantId, String partition, java.util.Set<String> groups, String... roles) {
        Actor admin = caller.actorFor(tenantId, roles);
        Tenant tenant = activeTenant(tenantId);
        limitRequests(tenant);
        String boundPartition = caller.boundPartition();
        Namespace namespace = namespace(tenant, partition, boundPartition);
        TenantRuntime runtime = runtime(tenant);
        Actor actor = groups == null ? admin
                : new Actor(admin.tenant(), admin.subject(), java.util.Set.of(io.corpora.server.Roles.READER), java.util.Set.copyOf(groups), java.util.Map.of());
        AccessDecision access = AccessDecision.decide(actor, tenant, namespace, boundPartition, runtime.filterHook());
        return new TenantView(access, runtime, registry(), jobs(), retrieval(), ingestion(), services().answers());
    }

    /** The tenant's {@code requestsPerMinute} quota over its data-plane calls; 429 with Retry-After beyond it. */
    public void limitRequests(Tenant tenant) {
        limit("requests", tenant, tenant.definition().quotas().requestsPerMinute());
    }

    /**
     * The tenant's {@code ingestsPerMinute} quota over its ingest calls; 429 with Retry-After beyond it. While a re-embed
     * migration holds the tenant, 409 {@code migration-in-progress} with Retry-After, before any work is done.
     */
    public void limitIngests(Tenant tenant) {
        ingestion().writeGate().requireOpen(tenant.id());
        limit("ingests", tenant, tenant.definition().quotas().ingestsPerMinute());
    }

    private void limit(String what, Tenant tenant, int perMinute) {
        RateLimits.Decision decision = rateLimits().acquire(what + ":" + tenant.id(), perMinute);
        if (!decision.allowed()) {
            throw new ProblemException(429, "rate-limited", "Too many requests", "tenant '" + tenant.id() + "' is limited to "
                    + perMinute + " " + what + " a minute; retry in " + decision.retryAfterSeconds() + " s").retryAfter(decision.retryAfterSeconds());
        }
    }

    /**
     * The namespace of a call: the tenant from the token, and a partition that the tenant declares and — when the token
     * is bound to a partition — the token allows. Never widened by the request.
     */
    private static Namespace namespace(Tenant tenant, String requestedPartition, String tokenPartition) {
        String partition = requestedPartition == null || requestedPartition.isBlank() ? tokenPartition : requestedPartition;
        if (tokenPartition != null && !tokenPartition.equals(partition)) {
            throw new ProblemException(403, "partition-forbidden", "Forbidden", "the token is bound to another partition");
        }
        if (partition != null && !partition.equals(Namespace.DEFAULT_PARTITION)
                && !tenant.definition().access().partitions().contains(partition)) {
            throw new ProblemException(400, "unknown-partition", "Unknown partition",
                    "tenant '" + tenant.id() + "' declares no partition '" + partition + "'; declared: " + tenant.definition().access().partitions());
        }
        return Namespace.of(tenant.id(), partition);
    }

    public TenantRepository tenants() {
        return require(tenantRepository, "tenant registry");
    }

    public DocumentRegistry registry() {
        return require(documentRegistry, "document registry");
    }

    public JobRepository jobs() {
        return require(jobRepository, "job repository");
    }

    private static <T> T require(Instance<T> instance, String what) {
        if (!instance.isResolvable()) {
            throw new ProblemException(503, "control-plane-unavailable", "Service unavailable", "the " + what + " is not available");
        }
        return instance.get();
    }

    @PreDestroy
    void close() {
        if (services != null) {
            services.runtimes().close();
        }
        if (documentCache != null) {
            documentCache.close();
        }
        if (pluginCalls != null) {
            pluginCalls.shutdownNow();
        }
    }
}
