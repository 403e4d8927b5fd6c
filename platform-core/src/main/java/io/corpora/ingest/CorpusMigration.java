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
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Copies a tenant's active corpus into a new place while the old one keeps serving, then switches atomically: the
 * mechanism shared by every kind of corpus migration, whose subclasses say what the new place is, how a document gets
 * there, how the switch is made and what each step's messages name.
 *
 * <ol>
 *   <li><b>Start</b>: the tenant's writes are {@link TenantWriteGate claimed} (its ingests, deletes and rebuilds answer
 *       409 until the end: the corpus cannot change under the copy) and a job of the subclass's {@link JobKind} records
 *       the target. While it is open every server refuses the tenant's version activations and document deletes.</li>
 *   <li><b>Copy</b>: every namespace's documents with an active version are copied one by one, each one job outcome
 *       (progress); one a previous run completed is skipped (a resumed copy). The first that fails ends the copy.</li>
 *   <li><b>Switch</b>: one control-plane transaction makes the new place the tenant's.</li>
 *   <li><b>Drain and remove</b>: after a short drain for reads already in flight, what the tenant no longer serves is
 *       deleted.</li>
 * </ol>
 * A failure before the switch rolls back (the copy is deleted, the tenant unchanged, the job FAILED with the reason),
 * also when the thread dies of an {@link Error}. {@link #recover} finishes a migration that had switched and resumes or
 * rolls back one that had not.
 * <p>
 * When the server stops, its {@link GracefulStop} makes every run end at its next step boundary (between documents — and,
 * re-embedding, between one document's batches — before the switch, or in the drain) without closing its job: the claim is
 * released and the job stays open for {@link #recover}, on the server that adopts it or at the next boot. Neither a
 * rollback nor a finish is attempted then — the persistence unit may already be closing, and a rollback could delete a
 * copy that an adopting server is resuming.
 *
 * @param <P> what the job records of the target ({@link IngestJob.Reembed}, {@link IngestJob.Relocate})
 */
public abstract class CorpusMigration<P> {

    /** What a restart (or the adoption of a dead server's job) does with a migration that had not switched yet. */
    public enum OnRestart { RESUME, ROLL_BACK }

    /** A migration that holds its tenant's writes and must now be {@link #run}. */
    public record Started(IngestJob job, TenantWriteGate.Claim claim) {}

    /**
     * How each kind names its steps in messages: {@code noun} the migration ("re-embed migration"), {@code verb} what an
     * ACTIVE tenant can be ("migrated"), {@code copied} what happens to a document ("re-embedded"), {@code copy} what
     * a rollback deletes ("new generation") and {@code interrupted} how a recovered job's reasons begin.
     */
    protected record Wording(String noun, String verb, String copied, String copy, String interrupted) {}

    /** How a kind of migration records its job (e.g. {@link JobRepository#createReembed}). */
    @FunctionalInterface
    protected interface JobCreation<P> {
        IngestJob create(String tenantId, int documents, P target);
    }

    /** How one run copies the documents of one namespace. */
    @FunctionalInterface
    protected interface NamespaceCopy {
        /** One document's active version into the new place: stored, skipped (already there) or failed, never thrown. */
        IngestJob.Outcome copy(DocumentRecord document);
    }

    /**
     * The server is stopping: the run ends where it is and leaves its job open for {@link #recover}. A subclass that
     * turns a document's exceptions into a failed outcome rethrows this one.
     */
    protected static final class StopRequested extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private StopRequested() {
            super("the server is stopping", null, false, false);
        }
    }

    /** The run cannot go on because the tenant or the target changed since the start; it rolls back with this reason. */
    protected static final class ChangedSinceStart extends RuntimeException {
        private static final long serialVersionUID = 1L;

        protected ChangedSinceStart(String reason) {
            super(reason, null, false, false);
        }
    }

    /** For the subclasses' switch and runtimes of the target. */
    protected final TenantRepository tenants;
    protected final Function<TenantDefinition, TenantRuntime> runtimes;
    private final Logger log = Logger.getLogger(getClass().getName());
    private final JobKind kind;
    private final Function<IngestJob, P> payload;
    private final JobCreation<P> createJob;
    private final Wording wording;
    private final JobRepository jobs;
    private final DocumentRegistry registry;
    private final TenantWriteGate gate;
    private final Duration claimWait;
    private final Duration drain;
    private final int embedBatchSize;
    /** The server's: runs and recoveries enter it, and its request ends them at their next step. */
    private final GracefulStop stop;

    /**
     * @param payload   what a job of {@code kind} records of its target
     * @param createJob records a new job of {@code kind}
     * @param runtimes  builds a runtime for a definition (the target's is not the tenant's yet)
     * @param claimWait how long a start waits for ingests in flight to finish
     * @param drain     how long the old place survives the switch, for reads that started before it
     * @param embedBatchSize how many chunks a copy that embeds embeds at once ({@link #indexInBatches})
     * @param stop      the server's stop, shared by every kind of migration it runs
     */
    protected CorpusMigration(JobKind kind, Function<IngestJob, P> payload, JobCreation<P> createJob, Wording wording,
                              TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, TenantWriteGate gate,
                              Function<TenantDefinition, TenantRuntime> runtimes, Duration claimWait, Duration drain, int embedBatchSize,
                              GracefulStop stop) {
        this.kind = Objects.requireNonNull(kind, "kind");
        this.payload = Objects.requireNonNull(payload, "payload");
        this.createJob = Objects.requireNonNull(createJob, "createJob");
        this.wording = Objects.requireNonNull(wording, "wording");
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.runtimes = Objects.requireNonNull(runtimes, "runtimes");
        this.claimWait = Objects.requireNonNull(claimWait, "claimWait");
        this.drain = Objects.requireNonNull(drain, "drain");
        if (embedBatchSize < 1) {
            throw new IllegalArgumentException("embedBatchSize must be >= 1");
        }
        this.embedBatchSize = embedBatchSize;
        this.stop = Objects.requireNonNull(stop, "stop");
    }

    /** The kind of job this migration runs. */
    public final JobKind kind() {
        return kind;
    }

    /** What messages call this migration, e.g. "store relocation". */
    public final String noun() {
        return wording.noun();
    }

    /**
     * Checks the target, claims the tenant's writes and records the job (QUEUED); the caller then {@link #run}s it,
     * typically in the background. Whatever the target needs is built or opened here, so a bad one fails now, not later.
     */
    public final Started start(Tenant tenant, PluginChoice target) {
        if (stop.requested()) {
            throw new IngestException(503, "server-stopping", "this server is stopping; start the " + wording.noun() + " on another server"
                    + " or after the restart").retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
        }
        requireActive(tenant);
        plan(tenant, target); // refuses a target that is no change, or cannot be built, before anything waits
        Optional<IngestJob> running = jobs.unfinishedMigration(tenant.id());
        if (running.isPresent()) {
            throw new IngestException(409, "migration-in-progress", "tenant '" + tenant.id() + "' is already being migrated by job "
                    + running.get().id()).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
        }
        checkTarget(tenant, target);
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a " + wording.noun(), claimWait);
        try {
            // The writes the claim waited for may have changed the tenant since the caller read it (a first ingest sets
            // its active embedder): the job is planned on what they left, or the switch would be refused at the end.
            Tenant claimed = tenants.find(tenant.id()).orElseThrow(() -> new IngestException(404, "tenant-not-found",
                    "tenant '" + tenant.id() + "' no longer exists"));
            requireActive(claimed);
            P plan = plan(claimed, target);
            IngestJob job = createJob.create(claimed.id(), ActiveDocuments.count(registry, claimed), plan);
            log.info(wording.noun() + " " + job.id() + " of tenant " + claimed.id() + ": " + describe(plan));
            return new Started(job, claim);
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    private void requireActive(Tenant tenant) {
        if (tenant.state() != TenantState.ACTIVE) {
            throw new IngestException(409, "tenant-not-active", "tenant '" + tenant.id() + "' is " + tenant.state()
                    + "; only an ACTIVE tenant can be " + wording.verb());
        }
    }

    /**
     * Copies, switches, drains and removes the old place, or rolls back. Never throws but an {@link Error}, after closing
     * the job: the job records how it ended. The claim is released before the job's final status is written, so
     * whoever sees the job ended can write again. A run the server's stop interrupts returns its job still open.
     */
    public final IngestJob run(Started started) {
        IngestJob job = started.job();
        if (job.kind() != kind) {
            throw new IllegalArgumentException("job " + job.id() + " is a " + job.kind() + " job, not a " + kind + " job");
        }
        P plan = payload.apply(job);
        TenantWriteGate.Claim claim = started.claim();
        boolean switched = false;
        stop.enter();
        try {
            stopPoint();
            jobs.markRunning(job.id());
            Tenant tenant = tenants.find(job.tenant()).orElseThrow(() -> new IllegalStateException("tenant '" + job.tenant() + "' no longer exists"));
            Optional<IngestJob.Outcome> failure = copyAll(job, tenant, open(tenant, plan));
            stopPoint(); // a copy the stop cut short may have failed because of it
            if (failure.isPresent()) {
                return rollBack(job, claim, "document '" + failure.get().documentId() + "' could not be " + wording.copied() + ": "
                        + failure.get().error());
            }
            String changed = changedMeanwhile(tenants.find(job.tenant()).orElseThrow(() -> new ChangedSinceStart(
                    "the tenant was deleted meanwhile")), plan);
            if (changed != null) { // the switch would be refused (it compares too); say why instead of how
                throw new ChangedSinceStart(changed);
            }
            switchOver(tenant, plan);
            switched = true;
            log.info("tenant " + tenant.id() + " switched: " + describe(plan) + " (" + wording.noun() + " " + job.id() + ")");
            drainOrStop();
            removeSource(tenant, plan);
            claim.release();
            return jobs.finish(job.id());
        } catch (RuntimeException e) {
            if (stop.requested()) { // whatever ended the run, nothing is closed once the stop began
                return leftOpen(job, claim, switched, e instanceof StopRequested ? null : e);
            }
            if (e instanceof ChangedSinceStart) {
                return rollBack(job, claim, e.getMessage());
            }
            log.log(Level.WARNING, wording.noun() + " " + job.id() + " of tenant " + job.tenant() + " failed", e);
            return failed(job, claim, switched, e);
        } catch (Error e) {
            // The thread dies, the server may live on: an open job would refuse the tenant's activations on every server.
            log.log(Level.SEVERE, wording.noun() + " " + job.id() + " of tenant " + job.tenant() + " died", e);
            try {
                failed(job, claim, switched, e);
            } catch (RuntimeException | Error closing) {
                e.addSuppressed(closing);
            }
            throw e;
        } finally {
            claim.release(); // also when closing the job failed
            stop.exit();
        }
    }

    /**
     * Ends the run here, its job left open, once the server's stop is requested (from then on {@link #start} refuses
     * with 503 and {@link #recover} leaves jobs as they are): called between documents, and by a subclass between the
     * steps of one long document's copy (never inside a catch that would take it for a failure).
     */
    protected final void stopPoint() {
        if (stop.requested()) {
            throw new StopRequested();
        }
    }

    /**
     * Embeds and writes one document's chunks a batch at a time, ending the run between two batches once the server's
     * stop is requested ({@link StopRequested}): a document of many batches (20,000 chunks are hundreds) is then cut
     * short, and the resumed run, which skips only complete documents, writes it again whole. A batch's failure is
     * thrown as is.
     */
    protected final void indexInBatches(ChunkIndexer indexer, List<Chunk> chunks) {
        for (int from = 0; from < chunks.size(); from += embedBatchSize) {
            if (from > 0) {
                stopPoint();
            }
            indexer.index(chunks.subList(from, Math.min(chunks.size(), from + embedBatchSize)));
        }
    }

    /**
     * After a restart or a lease expiry, for an unfinished migration of this kind: finishes it if the switch had
     * happened (removing the old place), otherwise resumes it — returned, holding the tenant's writes, for the caller to
     * {@link #run} — or rolls it back (policy, or the tenant gone, inactive or changed meanwhile).
     */
    public final Optional<Started> recover(IngestJob job, OnRestart policy) {
        if (job.kind() != kind) {
            throw new IllegalArgumentException("job " + job.id() + " is not a " + wording.noun());
        }
        stop.enter();
        try {
            if (stop.requested()) {
                log.info(wording.noun() + " " + job.id() + " of tenant " + job.tenant() + " is left for the next server to recover: this one is stopping");
                return Optional.empty();
            }
            return recoverNow(job, policy);
        } finally {
            stop.exit();
        }
    }

    private Optional<Started> recoverNow(IngestJob job, OnRestart policy) {
        P plan = payload.apply(job);
        Tenant tenant = tenants.find(job.tenant()).orElse(null);
        if (tenant == null) {
            jobs.fail(job.id(), wording.interrupted() + "; tenant '" + job.tenant() + "' no longer exists");
            return Optional.empty();
        }
        if (switched(tenant, plan)) {
            removeSource(tenant, plan);
            jobs.finish(job.id());
            log.info(wording.noun() + " " + job.id() + " had switched before it was interrupted; the old place is removed");
            return Optional.empty();
        }
        String changed = changedMeanwhile(tenant, plan);
        String reason = policy == OnRestart.ROLL_BACK ? wording.interrupted() + " (corpora.reembed.onRestart=rollback)"
                : changed != null ? wording.interrupted() + ", and " + changed
                : tenant.state() != TenantState.ACTIVE ? wording.interrupted() + ", and the tenant is now " + tenant.state()
                : null;
        if (reason != null) {
            rollBack(job, null, reason);
            return Optional.empty();
        }
        TenantWriteGate.Claim claim = gate.claim(tenant.id(), "a " + wording.noun(), claimWait);
        try {
            IngestJob restarted = jobs.restart(job.id(), ActiveDocuments.count(registry, tenant));
            log.info(wording.noun() + " " + job.id() + " of tenant " + tenant.id() + " resumes");
            return Optional.of(new Started(restarted, claim));
        } catch (RuntimeException e) {
            claim.release();
            throw e;
        }
    }

    /** Refuses a target that is no change (409) and returns what the job records of it. */
    protected abstract P plan(Tenant tenant, PluginChoice target);

    /** Checks the target once no other migration runs (e.g. that it can be opened); nothing by default. */
    protected void checkTarget(Tenant tenant, PluginChoice target) {}

    /** The change, for logs: "a -> b". */
    protected abstract String describe(P plan);

    /**
     * Prepares one run's copy for the tenant as it is now; throws {@link ChangedSinceStart} when the tenant or the
     * target changed since the start so that the copy cannot go on.
     */
    protected abstract Function<Namespace, NamespaceCopy> open(Tenant tenant, P plan);

    /** Makes the new place the tenant's in one control-plane transaction. */
    protected abstract void switchOver(Tenant tenant, P plan);

    /** Whether the tenant already serves from the new place (the switch committed). */
    protected abstract boolean switched(Tenant tenant, P plan);

    /** After the switch: deletes what the tenant no longer serves. */
    protected abstract void removeSource(Tenant tenant, P plan);

    /** Rolling back: deletes the copy in the new place; returns what was removed, for the log. */
    protected abstract String removeCopy(Tenant tenant, P plan);

    /** Why a recovered migration cannot resume because the tenant changed since it started, or null. */
    protected abstract String changedMeanwhile(Tenant tenant, P plan);

    /** A rolled-back job's closing words when the tenant still serves from the old place: "; the tenant still serves …". */
    protected abstract String stillServing(P plan);

    /** A rolled-back job's closing words when the switch had committed after all (the new place is kept). */
    protected abstract String alreadyServing(P plan);

    /** What to do about a copy a rollback could not delete. */
    protected abstract String leftoverAdvice(P plan);

    /** A job's error when the switch committed but removing the old place failed. */
    protected abstract String removalFailed(P plan, Throwable cause);

    /** Copies every document; stops at the first that fails and returns its outcome. */
    private Optional<IngestJob.Outcome> copyAll(IngestJob job, Tenant tenant, Function<Namespace, NamespaceCopy> copies) {
        for (Namespace namespace : tenant.namespaces()) {
            NamespaceCopy copy = copies.apply(namespace);
            for (DocumentRecord document : ActiveDocuments.of(registry, namespace)) {
                stopPoint();
                IngestJob.Outcome outcome = copy.copy(document);
                jobs.recordOutcome(job.id(), outcome);
                if (outcome.result().equals("failed")) {
                    return Optional.of(outcome);
                }
            }
        }
        return Optional.empty();
    }

    /** Ends a run that threw: rolled back before the switch, failed with the old place left to remove after it. */
    private IngestJob failed(IngestJob job, TenantWriteGate.Claim claim, boolean switched, Throwable cause) {
        if (!switched) {
            return rollBack(job, claim, cause.toString());
        }
        claim.release();
        return jobs.fail(job.id(), removalFailed(payload.apply(job), cause));
    }

    /**
     * Deletes the copy and fails the job; {@code claim} (null: none held) is released before the job ends. A copy that
     * cannot be deleted still fails the job: the old place serves throughout, so deleting the copy is cleanup, and an
     * open job would keep the tenant's activations refused on every server.
     */
    private IngestJob rollBack(IngestJob job, TenantWriteGate.Claim claim, String reason) {
        P plan = payload.apply(job);
        try {
            Tenant tenant = tenants.find(job.tenant()).orElse(null);
            String serving = stillServing(plan);
            String cleanup = "";
            if (tenant != null && switched(tenant, plan)) {
                serving = alreadyServing(plan);
            } else if (tenant != null) {
                try {
                    String removed = removeCopy(tenant, plan);
                    log.warning(wording.noun() + " " + job.id() + " of tenant " + tenant.id() + " rolled back (" + removed + "): " + reason);
                } catch (RuntimeException e) {
                    log.log(Level.SEVERE, wording.noun() + " " + job.id() + " of tenant " + tenant.id() + " rolled back, but its "
                            + wording.copy() + " could not be deleted", e);
                    cleanup = "; the " + wording.copy() + " could not be deleted: " + e + " (" + leftoverAdvice(plan) + ")";
                }
            }
            if (claim != null) {
                claim.release();
            }
            return jobs.fail(job.id(), "rolled back: " + reason + cleanup + serving);
        } catch (RuntimeException e) {
            log.log(Level.SEVERE, wording.noun() + " " + job.id() + " could not be closed (control plane unreachable?); it stays open"
                    + " until a server restart lets the recovery sweep roll it back", e);
            return job;
        }
    }

    /**
     * Leaves a run the stop interrupted as it is: the claim is released (the stopping server takes no more writes) and
     * the job stays open — with the outcomes of the documents already copied — for {@link #recover} to resume or finish.
     */
    private IngestJob leftOpen(IngestJob job, TenantWriteGate.Claim claim, boolean switched, RuntimeException cause) {
        claim.release();
        String next = switched ? "the server that recovers it removes the old place and ends it"
                : "the server that recovers it resumes it (or rolls it back, as its restart policy says)";
        log.info(wording.noun() + " " + job.id() + " of tenant " + job.tenant() + " stopped with the server; its job stays open and " + next
                + (cause == null ? "" : " (the run failed after the stop began, most likely because of it: " + cause + ")"));
        return job;
    }

    /** Waits out the drain after the switch; the stop cuts it short and leaves the removal to {@link #recover}. */
    private void drainOrStop() {
        if (stop.sleep(drain)) {
            throw new StopRequested();
        }
    }
}
