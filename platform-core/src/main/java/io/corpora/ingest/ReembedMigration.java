package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.NamespacedChunkIds;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Re-embeds a tenant's corpus with another embedder while the old one keeps serving, then switches atomically.
 *
 * <ol>
 *   <li><b>Start</b>: the tenant's writes are {@link TenantWriteGate claimed} (ingests, deletes and rebuilds answer 409
 *       until the end: the corpus cannot change under the copy) and a {@link JobKind#REEMBED} job records the target.</li>
 *   <li><b>Embed</b>: for every namespace, every document's active-version chunks are read from the store — so chunk
 *       boundaries stay exactly as they are — embedded with the target embedder and written beside the old ones, under
 *       ids of the new generation ({@link NamespacedChunkIds#of(Namespace, String, int, int, String)}) and stamped with
 *       the new {@code _embedder}. Searches filter on the tenant's active fingerprint, so they keep seeing only the old
 *       generation. Each document is one job outcome (progress).</li>
 *   <li><b>Switch</b>: one control-plane transaction sets the definition's embedder and the active fingerprint
 *       ({@link TenantRepository#switchEmbedder}); the next query embeds with the new model and sees the new generation.</li>
 *   <li><b>Clean up</b>: after a short drain for queries already in flight, chunks of any other generation are deleted.</li>
 * </ol>
 * Any failure before the switch rolls back: the new generation is deleted, the tenant is unchanged, the job FAILED
 * with the reason. A restart {@link #recover recovers} an unfinished job: switched ones are cleaned up and finished,
 * others are resumed (documents already re-embedded are skipped) or rolled back, as configured.
 */
public final class ReembedMigration {

    private static final Logger LOG = Logger.getLogger(ReembedMigration.class.getName());

    /** What a restart does with a migration that had not switched yet. */
    public enum OnRestart { RESUME, ROLL_BACK }

    /** A migration that holds its tenant's writes and must now be {@link #run}. */
    public record Started(IngestJob job, TenantWriteGate.Claim claim) {}

    private final TenantRepository tenants;
    private final DocumentRegistry registry;
    private final JobRepository jobs;
    private final TenantWriteGate gate;
    private final Function<TenantDefinition, TenantRuntime> runtimes;
    private final int embedBatchSize;
    private final Duration claimWait;
    private final Duration drain;

    /**
     * @param runtimes  builds a runtime for a definition (the target's is not the tenant's yet)
     * @param claimWait how long a start waits for ingests in flight to finish
     * @param drain     how long the old generation survives the switch, for queries that read the tenant before it
     */
    public ReembedMigration(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, TenantWriteGate gate,
                            Function<TenantDefinition, TenantRuntime> runtimes, int embedBatchSize, Duration claimWait, Duration drain) {
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.runtimes = Objects.requireNonNull(runtimes, "runtimes");
        if (embedBatchSize < 1) {
            throw new IllegalArgumentException("embedBatchSize must be >= 1");
        }
        this.embedBatchSize = embedBatchSize;
        this.claimWait = Objects.requireNonNull(claimWait, "claimWait");
        this.drain = Objects.requireNonNull(drain, "drain");
    }

    /** The route that starts a migration, for messages that refuse an embedder change. */
    public static String route(String tenantId) {
        return "POST /admin/v1/tenants/" + tenantId + "/embedder:migrate {\"embedder\": {\"provider\": …, \"config\": {…}}}";
    }

    /**
     * Checks the target, claims the tenant's writes and records the job (QUEUED); the caller then {@link #run}s it,
     * typically in the background. The target embedder is built here, so a bad configuration fails now (400), not later.
     */
    public Started start(Tenant tenant, PluginChoice targetEmbedder) {
        if (tenant.state() != TenantState.ACTIVE) {
            throw new IngestException(409, "tenant-not-active", "tenant '" + tenant.id() + "' is " + tenant.state()
                    + "; only an ACTIVE tenant can be migrated");
        }
        String to = runtimes.apply(withEmbedder(tenant.definition(), targetEmbedder)).embedderId();
        if (to.equals(tenant.activeEmbedder())) {
            throw new IngestException(409, "embedder-unchanged", "tenant '" + tenant.id() + "' already carries fingerprint " + to
                    + "; there is nothing to re-embed (a change that keeps the fingerprint is a plain tenant update)");
        }
        Optional<IngestJob> running = jobs.unfinishedMigration(tenant.id());
        if (running.isPresent()) {
            throw new IngestException(409, "migration-in-progress", "tenant '" + tenant.id() + "' is already being migrated by job "
                    + running.get().id()).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
        }
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a re-embed migration", claimWait);
        try {
            IngestJob job = jobs.createReembed(tenant.id(), ActiveDocuments.count(registry, tenant),
                    new IngestJob.Reembed(targetEmbedder, tenant.activeEmbedder(), to));
            LOG.info("re-embed migration " + job.id() + " of tenant " + tenant.id() + ": " + tenant.activeEmbedder() + " -> " + to);
            return new Started(job, claim);
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    /**
     * Embeds, switches and cleans up, or rolls back. Never throws: the job records how it ended. The claim is released
     * before the job's final status is written, so whoever sees the job ended can write again.
     */
    public IngestJob run(Started started) {
        IngestJob job = started.job();
        IngestJob.Reembed target = job.reembed();
        TenantWriteGate.Claim claim = started.claim();
        boolean switched = false;
        try {
            jobs.markRunning(job.id());
            Tenant tenant = requireTenant(job);
            TenantRuntime runtime = runtimes.apply(withEmbedder(tenant.definition(), target.targetEmbedder()));
            if (!runtime.embedderId().equals(target.toEmbedder())) {
                return rollBack(job, claim, "the target embedder now has fingerprint " + runtime.embedderId() + ", not " + target.toEmbedder()
                        + " (its model changed since the migration started)");
            }
            Optional<IngestJob.Outcome> failure = embedAll(job, tenant, runtime);
            if (failure.isPresent()) {
                return rollBack(job, claim, "document '" + failure.get().documentId() + "' could not be re-embedded: " + failure.get().error());
            }
            tenants.switchEmbedder(tenant.id(), target.fromEmbedder(), target.targetEmbedder(), target.toEmbedder());
            switched = true;
            LOG.info("tenant " + tenant.id() + " switched to embedder " + target.toEmbedder() + " (migration " + job.id() + ")");
            pause(drain);
            removeOtherGenerations(tenant, runtime.store(), target.toEmbedder());
            claim.release();
            return jobs.finish(job.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "re-embed migration " + job.id() + " of tenant " + job.tenant() + " failed", e);
            if (!switched) {
                return rollBack(job, claim, e.toString());
            }
            claim.release();
            return jobs.fail(job.id(), "the tenant serves " + target.toEmbedder() + ", but removing the previous generation failed ("
                    + e + "); its chunks are invisible to searches and go with the next migration or index:rebuild");
        } finally {
            claim.release(); // also when the thread dies of an Error
        }
    }

    /**
     * After a restart, for an unfinished migration job: finishes it if the switch had happened (removing the old
     * generation), otherwise resumes it — returned, holding the tenant's writes, for the caller to {@link #run} — or rolls
     * it back. A resume that is impossible (tenant gone, inactive or changed meanwhile) rolls back.
     */
    public Optional<Started> recover(IngestJob job, OnRestart policy) {
        if (job.kind() != JobKind.REEMBED) {
            throw new IllegalArgumentException("job " + job.id() + " is not a re-embed migration");
        }
        IngestJob.Reembed target = job.reembed();
        Tenant tenant = tenants.find(job.tenant()).orElse(null);
        if (tenant == null) {
            jobs.fail(job.id(), "interrupted by a restart; tenant '" + job.tenant() + "' no longer exists");
            return Optional.empty();
        }
        if (target.toEmbedder().equals(tenant.activeEmbedder())) {
            removeOtherGenerations(tenant, runtimes.apply(tenant.definition()).store(), target.toEmbedder());
            jobs.finish(job.id());
            LOG.info("re-embed migration " + job.id() + " had switched before the restart; old generation removed");
            return Optional.empty();
        }
        String reason = policy == OnRestart.ROLL_BACK ? "interrupted by a restart (corpora.reembed.onRestart=rollback)"
                : !Objects.equals(target.fromEmbedder(), tenant.activeEmbedder()) ? "interrupted by a restart, and the tenant now carries "
                        + tenant.activeEmbedder() + " instead of " + target.fromEmbedder()
                : tenant.state() != TenantState.ACTIVE ? "interrupted by a restart, and the tenant is now " + tenant.state()
                : null;
        if (reason != null) {
            rollBack(job, null, reason);
            return Optional.empty();
        }
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a re-embed migration", claimWait);
        try {
            IngestJob restarted = jobs.restart(job.id(), ActiveDocuments.count(registry, tenant));
            LOG.info("re-embed migration " + job.id() + " of tenant " + tenant.id() + " resumes after a restart");
            return Optional.of(new Started(restarted, claim));
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    /** Re-embeds every document; stops at the first that fails and returns its outcome. */
    private Optional<IngestJob.Outcome> embedAll(IngestJob job, Tenant tenant, TenantRuntime runtime) {
        for (Namespace namespace : tenant.namespaces()) {
            IsolationGuard store = new IsolationGuard(runtime.store(), namespace, 1);
            ChunkIndexer indexer = new ChunkIndexer(store, namespace, runtime.embedder(), new HeadingContextualizer());
            for (DocumentRecord document : ActiveDocuments.of(registry, namespace)) {
                IngestJob.Outcome outcome = reembed(document, store, indexer, job.reembed());
                jobs.recordOutcome(job.id(), outcome);
                if (outcome.result().equals("failed")) {
                    return Optional.of(outcome);
                }
            }
        }
        return Optional.empty();
    }

    /** One document's active version into the new generation; skipped when a previous run already completed it. */
    private IngestJob.Outcome reembed(DocumentRecord document, VectorStore store, ChunkIndexer indexer, IngestJob.Reembed target) {
        Namespace namespace = document.namespace();
        String documentId = document.documentId();
        int version = document.activeVersion();
        MetadataFilter activeVersion = MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, documentId),
                MetadataFilter.eq(ReservedKeys.VERSION, version));
        if (store.count(namespace, MetadataFilter.and(activeVersion, MetadataFilter.eq(ReservedKeys.EMBEDDER, target.toEmbedder())))
                == document.chunkCount()) {
            return new IngestJob.Outcome(documentId, "skipped", version, document.chunkCount(), 200, null);
        }
        Map<Integer, Chunk> serving = new TreeMap<>();
        for (Chunk chunk : store.documentChunks(namespace, documentId)) {
            Object embedder = chunk.metadata().get(ReservedKeys.EMBEDDER);
            boolean servingGeneration = target.fromEmbedder() == null ? !target.toEmbedder().equals(embedder)
                    : target.fromEmbedder().equals(embedder);
            if (chunk.metadata().get(ReservedKeys.VERSION) instanceof Number v && v.intValue() == version && servingGeneration) {
                serving.put(chunk.index(), chunk);
            }
        }
        if (serving.size() != document.chunkCount()) {
            return new IngestJob.Outcome(documentId, "failed", version, 0, 409, "the store holds " + serving.size() + " of the "
                    + document.chunkCount() + " chunks of version " + version + " (partition " + namespace.partitionKey()
                    + "); repair it with POST index:rebuild before migrating");
        }
        List<Chunk> copies = serving.values().stream().map(c -> copyInto(c, namespace, version, target.toEmbedder())).toList();
        try {
            for (int from = 0; from < copies.size(); from += embedBatchSize) {
                indexer.index(copies.subList(from, Math.min(copies.size(), from + embedBatchSize)));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "re-embedding '" + documentId + "' in " + namespace + " failed", e);
            return new IngestJob.Outcome(documentId, "failed", version, 0, e instanceof IngestException ie ? ie.status() : 500,
                    e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return new IngestJob.Outcome(documentId, "stored", version, copies.size(), 200, null);
    }

    /** The same chunk (text, headings, metadata, version) under the new generation's id; the indexer stamps {@code _embedder}. */
    private static Chunk copyInto(Chunk chunk, Namespace namespace, int version, String embedderId) {
        Map<String, Object> metadata = new LinkedHashMap<>(chunk.metadata());
        metadata.remove(ReservedKeys.EMBEDDER);
        return new Chunk(NamespacedChunkIds.of(namespace, chunk.documentId(), version, chunk.index(), embedderId), chunk.documentId(),
                chunk.index(), chunk.text(), chunk.headingPath(), metadata);
    }

    /**
     * Deletes the new generation and fails the job; {@code claim} (null: none held) is released before the job ends. A
     * generation that cannot be deleted still fails the job: the tenant serves its old embedder throughout, and an open
     * job would keep its activations refused on every server.
     */
    private IngestJob rollBack(IngestJob job, TenantWriteGate.Claim claim, String reason) {
        String to = job.reembed().toEmbedder();
        try {
            Tenant tenant = tenants.find(job.tenant()).orElse(null);
            String serving = "; the tenant still serves " + job.reembed().fromEmbedder();
            String cleanup = "";
            if (tenant != null && to.equals(tenant.activeEmbedder())) {
                serving = "; the tenant already serves " + to + ", whose generation is kept";
            } else if (tenant != null) {
                try {
                    VectorStore store = runtimes.apply(tenant.definition()).store();
                    int removed = 0;
                    for (Namespace namespace : tenant.namespaces()) {
                        removed += store.deleteWhere(namespace, MetadataFilter.eq(ReservedKeys.EMBEDDER, to));
                    }
                    LOG.warning("re-embed migration " + job.id() + " of tenant " + tenant.id() + " rolled back (" + removed
                            + " new-generation chunks removed): " + reason);
                } catch (RuntimeException e) {
                    LOG.log(Level.SEVERE, "re-embed migration " + job.id() + " of tenant " + tenant.id() + " rolled back, but its new"
                            + " generation could not be deleted", e);
                    cleanup = "; the new generation could not be deleted: " + e + " (its chunks are invisible to searches and go"
                            + " with the next migration or index:rebuild)";
                }
            }
            if (claim != null) {
                claim.release();
            }
            return jobs.fail(job.id(), "rolled back: " + reason + cleanup + serving);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "re-embed migration " + job.id() + " could not be closed (control plane unreachable?); it stays open"
                    + " until a server restart lets the recovery sweep roll it back", e);
            return job;
        }
    }

    private void removeOtherGenerations(Tenant tenant, VectorStore store, String embedderId) {
        for (Namespace namespace : tenant.namespaces()) {
            store.deleteWhere(namespace, MetadataFilter.not(MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderId)));
        }
    }

    private Tenant requireTenant(IngestJob job) {
        return tenants.find(job.tenant()).orElseThrow(() -> new IllegalStateException("tenant '" + job.tenant() + "' no longer exists"));
    }

    /** The definition with another embedder choice: the migration target (store, partitions, … unchanged). */
    public static TenantDefinition withEmbedder(TenantDefinition d, PluginChoice embedder) {
        return d.withEmbedder(embedder);
    }

    private static void pause(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return;
        }
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
