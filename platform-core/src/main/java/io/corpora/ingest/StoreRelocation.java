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
import io.corpora.runtime.StoreLocation;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.IsolationGuard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Moves a tenant's corpus to another store configuration (another database, a dedicated table, another store plugin)
 * while the current store keeps serving, then switches atomically: the re-embed migration's machinery with the same
 * embedder and another store.
 *
 * <ol>
 *   <li><b>Start</b>: the tenant's writes are {@link TenantWriteGate claimed} and a {@link JobKind#RELOCATE} job records
 *       both store choices. While it is open every server refuses the tenant's version activations (409
 *       {@code migration-in-progress}): writes are refused, not written twice, because the refusal is already enforced in
 *       the control plane on every server, while a double write would need every server's write path to know of two
 *       stores and to order its writes against the copy.</li>
 *   <li><b>Copy</b>: every namespace's active-version chunks are read from the source — ids, text, headings and
 *       metadata, including the embedder fingerprint — with their stored vectors
 *       ({@link VectorStore#storedVectors}), and written to the target under the same ids. A source that cannot return
 *       its vectors has the chunk texts embedded again by the tenant's (unchanged) embedder. Each document is one job
 *       outcome; one already complete in the target is skipped (a resumed copy).</li>
 *   <li><b>Switch</b>: one control-plane transaction points the tenant's store at the target
 *       ({@link TenantRepository#switchStore}); every server reads it on its next request.</li>
 *   <li><b>Drain and delete</b>: after a short drain for reads already in flight, the tenant's data in the source is
 *       deleted and the source releases what it holds open for the tenant.</li>
 * </ol>
 * A failure before the switch rolls back (the target copy is deleted, the tenant unchanged, the job FAILED with the
 * reason); {@link #recover} finishes a relocation that had switched and resumes or rolls back one that had not.
 */
public final class StoreRelocation {

    private static final Logger LOG = Logger.getLogger(StoreRelocation.class.getName());

    /** A relocation that holds its tenant's writes and must now be {@link #run}. */
    public record Started(IngestJob job, TenantWriteGate.Claim claim) {}

    private final TenantRepository tenants;
    private final DocumentRegistry registry;
    private final JobRepository jobs;
    private final TenantWriteGate gate;
    private final Function<TenantDefinition, TenantRuntime> runtimes;
    private final Function<PluginChoice, StoreLocation> locations;
    private final Duration claimWait;
    private final Duration drain;
    private final HeadingContextualizer contextualizer = new HeadingContextualizer();

    /**
     * @param runtimes  builds a runtime for a definition (the target's is not the tenant's yet)
     * @param locations where a store choice keeps its data (two choices of one location are one copy)
     * @param claimWait how long a start waits for ingests in flight to finish
     * @param drain     how long the source copy survives the switch, for reads that started before it
     */
    public StoreRelocation(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, TenantWriteGate gate,
                           Function<TenantDefinition, TenantRuntime> runtimes, Function<PluginChoice, StoreLocation> locations,
                           Duration claimWait, Duration drain) {
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.runtimes = Objects.requireNonNull(runtimes, "runtimes");
        this.locations = Objects.requireNonNull(locations, "locations");
        this.claimWait = Objects.requireNonNull(claimWait, "claimWait");
        this.drain = Objects.requireNonNull(drain, "drain");
    }

    /**
     * Checks the target, claims the tenant's writes and records the job (QUEUED); the caller then {@link #run}s it. The
     * target store is opened here, so an unreachable or misconfigured one fails now, not later.
     */
    public Started start(Tenant tenant, PluginChoice targetStore) {
        if (tenant.state() != TenantState.ACTIVE) {
            throw new IngestException(409, "tenant-not-active", "tenant '" + tenant.id() + "' is " + tenant.state()
                    + "; only an ACTIVE tenant can be relocated");
        }
        PluginChoice current = tenant.definition().store();
        if (locations.apply(current).equals(locations.apply(targetStore))) {
            throw new IngestException(409, "store-unchanged", "tenant '" + tenant.id() + "' already keeps its chunks at this "
                    + targetStore.provider() + " location; there is nothing to move (a change of options that are not the"
                    + " store's location is a plain tenant update)");
        }
        Optional<IngestJob> running = jobs.unfinishedMigration(tenant.id());
        if (running.isPresent()) {
            throw new IngestException(409, "migration-in-progress", "tenant '" + tenant.id() + "' is already being migrated by job "
                    + running.get().id()).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
        }
        long targetHolds;
        try {
            VectorStore target = runtimes.apply(tenant.definition().withStore(targetStore)).store();
            target.checkHealth();
            targetHolds = chunksOf(tenant, target);
        } catch (RuntimeException e) {
            throw new IngestException(400, "store-unavailable", "the target " + targetStore.provider() + " store cannot be opened: "
                    + e.getMessage(), e);
        }
        if (targetHolds > 0) {
            // Option strings that differ can still name the same data (a jdbcUrl with another parameter or host alias):
            // the copy would skip everything, and deleting the "source" afterwards would delete the only copy.
            throw new IngestException(409, "target-not-empty", "the target " + targetStore.provider() + " store already holds "
                    + targetHolds + " chunks of tenant '" + tenant.id() + "': it is the tenant's current store under another"
                    + " spelling, or the leftover of an earlier relocation; delete the tenant's data there by hand before relocating to it");
        }
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a store relocation", claimWait);
        try {
            IngestJob job = jobs.createRelocation(tenant.id(), ActiveDocuments.count(registry, tenant), new IngestJob.Relocate(current, targetStore));
            LOG.info("store relocation " + job.id() + " of tenant " + tenant.id() + ": " + current.provider() + " -> " + targetStore.provider());
            return new Started(job, claim);
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    /** Copies, switches, drains and deletes the source, or rolls back. Never throws: the job records how it ended. */
    public IngestJob run(Started started) {
        IngestJob job = started.job();
        IngestJob.Relocate stores = job.relocate();
        TenantWriteGate.Claim claim = started.claim();
        boolean switched = false;
        try {
            jobs.markRunning(job.id());
            Tenant tenant = tenants.find(job.tenant()).orElseThrow(() -> new IllegalStateException("tenant '" + job.tenant() + "' no longer exists"));
            if (!tenant.definition().store().equals(stores.fromStore())) {
                return rollBack(job, claim, "the tenant's store configuration changed since the relocation started");
            }
            TenantRuntime source = runtimes.apply(tenant.definition());
            TenantRuntime target = runtimes.apply(tenant.definition().withStore(stores.targetStore()));
            Optional<IngestJob.Outcome> failure = copyAll(job, tenant, source, target);
            if (failure.isPresent()) {
                return rollBack(job, claim, "document '" + failure.get().documentId() + "' could not be copied: " + failure.get().error());
            }
            tenants.switchStore(tenant.id(), stores.fromStore(), stores.targetStore());
            switched = true;
            LOG.info("tenant " + tenant.id() + " switched to its " + stores.targetStore().provider() + " store (relocation " + job.id() + ")");
            pause(drain);
            deleteTenantData(tenant, source.store());
            claim.release();
            return jobs.finish(job.id());
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "store relocation " + job.id() + " of tenant " + job.tenant() + " failed", e);
            return failed(job, claim, switched, e);
        } catch (Error e) {
            // The thread dies, the server may live on: an open job would refuse the tenant's activations on every server.
            LOG.log(Level.SEVERE, "store relocation " + job.id() + " of tenant " + job.tenant() + " died", e);
            try {
                failed(job, claim, switched, e);
            } catch (RuntimeException | Error closing) {
                e.addSuppressed(closing);
            }
            throw e;
        } finally {
            claim.release(); // also when the thread dies of an Error
        }
    }

    /**
     * After a restart or a lease expiry, for an unfinished relocation: finishes it if the switch had happened (deleting
     * the source copy), otherwise resumes it — returned, holding the tenant's writes, for the caller to {@link #run} — or
     * rolls it back (policy, or the tenant gone, inactive or changed meanwhile).
     */
    public Optional<Started> recover(IngestJob job, ReembedMigration.OnRestart policy) {
        if (job.kind() != JobKind.RELOCATE) {
            throw new IllegalArgumentException("job " + job.id() + " is not a store relocation");
        }
        IngestJob.Relocate stores = job.relocate();
        Tenant tenant = tenants.find(job.tenant()).orElse(null);
        if (tenant == null) {
            jobs.fail(job.id(), "interrupted; tenant '" + job.tenant() + "' no longer exists");
            return Optional.empty();
        }
        if (tenant.definition().store().equals(stores.targetStore())) {
            deleteTenantData(tenant, runtimes.apply(tenant.definition().withStore(stores.fromStore())).store());
            jobs.finish(job.id());
            LOG.info("store relocation " + job.id() + " had switched before it was interrupted; source copy deleted");
            return Optional.empty();
        }
        String reason = policy == ReembedMigration.OnRestart.ROLL_BACK ? "interrupted (corpora.reembed.onRestart=rollback)"
                : !tenant.definition().store().equals(stores.fromStore()) ? "interrupted, and the tenant's store configuration changed meanwhile"
                : tenant.state() != TenantState.ACTIVE ? "interrupted, and the tenant is now " + tenant.state()
                : null;
        if (reason != null) {
            rollBack(job, null, reason);
            return Optional.empty();
        }
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a store relocation", claimWait);
        try {
            IngestJob restarted = jobs.restart(job.id(), ActiveDocuments.count(registry, tenant));
            LOG.info("store relocation " + job.id() + " of tenant " + tenant.id() + " resumes");
            return Optional.of(new Started(restarted, claim));
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    /** Ends a run that threw: rolled back before the switch, failed with the source left to delete by hand after it. */
    private IngestJob failed(IngestJob job, TenantWriteGate.Claim claim, boolean switched, Throwable cause) {
        if (!switched) {
            return rollBack(job, claim, cause.toString());
        }
        claim.release();
        return jobs.fail(job.id(), "the tenant serves from its new store, but deleting the source copy failed (" + cause
                + "); delete the tenant's data from the " + job.relocate().fromStore().provider() + " store by hand");
    }

    /** How many chunks {@code store} holds of the tenant, over all its namespaces. */
    private static long chunksOf(Tenant tenant, VectorStore store) {
        long chunks = 0;
        for (Namespace namespace : tenant.namespaces()) {
            chunks += store.count(namespace, MetadataFilter.all());
        }
        return chunks;
    }

    /** Copies every document; stops at the first that fails and returns its outcome. */
    private Optional<IngestJob.Outcome> copyAll(IngestJob job, Tenant tenant, TenantRuntime source, TenantRuntime target) {
        for (Namespace namespace : tenant.namespaces()) {
            VectorStore from = new IsolationGuard(source.store(), namespace, 1);
            VectorStore to = new IsolationGuard(target.store(), namespace, 1);
            for (DocumentRecord document : ActiveDocuments.of(registry, namespace)) {
                IngestJob.Outcome outcome = copy(document, tenant.activeEmbedder(), from, to, target);
                jobs.recordOutcome(job.id(), outcome);
                if (outcome.result().equals("failed")) {
                    return Optional.of(outcome);
                }
            }
        }
        return Optional.empty();
    }

    /** One document's active version, with its vectors, into the target; skipped when the target holds it already. */
    private IngestJob.Outcome copy(DocumentRecord document, String activeEmbedder, VectorStore from, VectorStore to, TenantRuntime target) {
        Namespace namespace = document.namespace();
        String documentId = document.documentId();
        int version = document.activeVersion();
        MetadataFilter activeVersion = MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, documentId),
                MetadataFilter.eq(ReservedKeys.VERSION, version));
        try {
            if (to.count(namespace, activeVersion) == document.chunkCount()) {
                return new IngestJob.Outcome(documentId, "skipped", version, document.chunkCount(), 200, null);
            }
            List<Chunk> chunks = new ArrayList<>();
            for (Chunk chunk : from.documentChunks(namespace, documentId)) {
                boolean servingGeneration = activeEmbedder == null || activeEmbedder.equals(chunk.metadata().get(ReservedKeys.EMBEDDER));
                if (chunk.metadata().get(ReservedKeys.VERSION) instanceof Number v && v.intValue() == version && servingGeneration) {
                    chunks.add(chunk);
                }
            }
            if (chunks.size() != document.chunkCount()) {
                return new IngestJob.Outcome(documentId, "failed", version, 0, 409, "the source store holds " + chunks.size() + " of the "
                        + document.chunkCount() + " chunks of version " + version + " (partition " + namespace.partitionKey()
                        + "); repair it with POST index:rebuild before relocating");
            }
            List<EmbeddedChunk> copies = withStoredVectors(chunks, activeEmbedder, from, namespace);
            if (copies != null) {
                to.upsert(namespace, copies);
            } else {
                if (!Objects.equals(target.embedderId(), activeEmbedder)) {
                    return new IngestJob.Outcome(documentId, "failed", version, 0, 409, "the source store cannot return its vectors and"
                            + " the tenant's embedder now has fingerprint " + target.embedderId() + ", not " + activeEmbedder);
                }
                LOG.fine("the source store returned no vectors for '" + documentId + "'; embedding its chunks again");
                new ChunkIndexer(to, namespace, target.embedder(), contextualizer).index(chunks);
            }
            return new IngestJob.Outcome(documentId, "stored", version, chunks.size(), 200, null);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "copying '" + documentId + "' in " + namespace + " failed", e);
            return new IngestJob.Outcome(documentId, "failed", version, 0, e instanceof IngestException ie ? ie.status() : 500,
                    e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * The chunks with the vectors the source stored for them, or null when the source cannot return them all (the
     * caller embeds again). A keyword-only corpus (no active embedder) has no vectors to copy.
     */
    private List<EmbeddedChunk> withStoredVectors(List<Chunk> chunks, String activeEmbedder, VectorStore from, Namespace namespace) {
        if (activeEmbedder == null) {
            return chunks.stream().map(c -> contextualizer.embedded(c, null)).toList();
        }
        Optional<Map<String, float[]>> vectors = from.storedVectors(namespace, chunks.stream().map(Chunk::id).toList());
        if (vectors.isEmpty() || !vectors.get().keySet().containsAll(chunks.stream().map(Chunk::id).toList())) {
            return null;
        }
        return chunks.stream().map(c -> contextualizer.embedded(c, vectors.get().get(c.id()))).toList();
    }

    /**
     * Deletes the target copy and fails the job; {@code claim} (null: none held) is released before the job ends. A
     * target that cannot be deleted still fails the job: the source serves throughout, so deleting the target is
     * cleanup, and an open job would keep the tenant's activations refused on every server.
     */
    private IngestJob rollBack(IngestJob job, TenantWriteGate.Claim claim, String reason) {
        IngestJob.Relocate stores = job.relocate();
        try {
            Tenant tenant = tenants.find(job.tenant()).orElse(null);
            String serving = "; the tenant still serves from its " + stores.fromStore().provider() + " store";
            String cleanup = "";
            if (tenant != null && tenant.definition().store().equals(stores.targetStore())) {
                serving = "; the tenant already serves from its " + stores.targetStore().provider() + " store, which is kept: delete its"
                        + " data from the " + stores.fromStore().provider() + " store by hand";
            } else if (tenant != null) {
                try {
                    deleteTenantData(tenant, runtimes.apply(tenant.definition().withStore(stores.targetStore())).store());
                    LOG.warning("store relocation " + job.id() + " of tenant " + tenant.id() + " rolled back (target copy deleted): " + reason);
                } catch (RuntimeException e) {
                    LOG.log(Level.SEVERE, "store relocation " + job.id() + " of tenant " + tenant.id() + " rolled back, but its target copy"
                            + " could not be deleted", e);
                    cleanup = "; the target copy could not be deleted: " + e + " (delete the tenant's data from the target "
                            + stores.targetStore().provider() + " store by hand before relocating there again)";
                }
            }
            if (claim != null) {
                claim.release();
            }
            return jobs.fail(job.id(), "rolled back: " + reason + cleanup + serving);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "store relocation " + job.id() + " could not be closed (control plane unreachable?); it stays open"
                    + " until a server restart lets the recovery sweep roll it back", e);
            return job;
        }
    }

    /** Everything {@code store} holds of the tenant, in every partition, then whatever it holds open for it. */
    private static void deleteTenantData(Tenant tenant, VectorStore store) {
        if (!store.deleteTenant(tenant.id())) {
            for (Namespace namespace : tenant.namespaces()) {
                store.deleteNamespace(namespace);
            }
        }
        store.releaseTenant(tenant.id());
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
