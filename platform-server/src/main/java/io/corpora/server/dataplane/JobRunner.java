package io.corpora.server.dataplane;

import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobRepository;
import io.corpora.access.TenantView;
import io.corpora.ingest.FailedOutcomes;
import io.corpora.ingest.GracefulStop;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.JobCompletions;
import io.corpora.ingest.OrderedWindow;
import io.corpora.ingest.OutcomeBatch;
import io.corpora.ingest.TenantJobQueue;
import io.corpora.spi.Namespace;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs ingest and rebuild jobs on the container's managed executor. Each document succeeds or fails alone; the job
 * records every outcome, so a bad document in a batch never stops the others.
 * <p>
 * When the server stops, a running job finishes the documents in flight and fails the ones it had not begun
 * ({@code job-interrupted}: nothing of them was stored), then ends, so its outcomes add up before the persistence unit
 * closes. The stop begins when the application's does, or earlier, when Liberty's quiesce refuses the job's next document.
 */
@ApplicationScoped
public class JobRunner implements StoppableWork {

    private static final Logger LOG = Logger.getLogger(JobRunner.class.getName());

    @Resource
    ManagedExecutorService executor;

    @Inject
    DataPlane dataPlane;

    /**
     * Documents of one job processed at once (default 2): while one document's chunks are embedded, the next is loaded
     * and chunked and the previous one written and committed, and concurrent writers share the store's commits.
     * 1 processes them one after the other.
     */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "corpora.ingest.jobParallelism", defaultValue = "2")
    int parallelism;

    /** Jobs of one tenant running at once on this server (default 3); later ones wait, QUEUED, in submission order. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "corpora.ingest.jobsPerTenant", defaultValue = "" + TenantJobQueue.DEFAULT_PER_TENANT)
    int jobsPerTenant;

    /** Looks at a job held at once ({@code GET jobs/{id}?wait=}), each holding a request thread; beyond it they are answered at once. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "corpora.jobs.maxWaiting", defaultValue = "" + JobCompletions.DEFAULT_MAX_WAITING)
    int maxWaiting;

    /** The same bound per tenant, so one tenant's clients cannot hold every slot. */
    @Inject
    @org.eclipse.microprofile.config.inject.ConfigProperty(name = "corpora.jobs.maxWaitingPerTenant",
            defaultValue = "" + JobCompletions.DEFAULT_MAX_WAITING_PER_TENANT)
    int maxWaitingPerTenant;

    static final String NOT_BEGUN = "interrupted: this server stopped before the document was begun; nothing of it was stored and"
            + " the previous version, if any, still serves: send it again";
    static final String NOT_REBUILT = "interrupted: this server stopped before the document was re-pushed; its active version still"
            + " serves, and orphaned or stale chunks were not removed: run index:rebuild again";

    /** Jobs running on this server enter it; the server's stop ends them after the documents in flight. */
    private final GracefulStop stop = new GracefulStop();

    /** Wakes the callers waiting for a job this server runs. */
    private JobCompletions completions;

    private TenantJobQueue queue;

    @PostConstruct
    void bindWaiters() {
        completions = new JobCompletions(maxWaiting, maxWaitingPerTenant);
        queue = new TenantJobQueue(this::execute, jobsPerTenant);
    }

    public JobCompletions completions() {
        return completions;
    }

    /** Creates the job and queues it behind the tenant's running ones ({@link TenantJobQueue}); returns it as queued. */
    public IngestJob submit(TenantView view, List<IngestRequest> requests) {
        IngestJob job = view.createJob(requests.size());
        enqueue(view.namespace().tenant(), job, () -> run(job, requests, IngestRequest::documentId, view::ingest, () -> {}, NOT_BEGUN));
        return job;
    }

    /**
     * Creates a job re-pushing every document of the view's namespace that its actor may see (one outcome each), then
     * removing the chunks no registered document owns and stale versions of documents not being written; returns it as
     * queued. Refused (409 {@code rebuild-in-progress}) while a rebuild of the namespace is unfinished on any server
     * sharing the control plane ({@link JobRepository#createRebuild}).
     */
    public IngestJob submitRebuild(TenantView view) {
        Namespace namespace = view.namespace();
        List<String> documentIds = view.rebuildable();
        IngestJob job = view.createRebuildJob(documentIds.size());
        enqueue(namespace.tenant(), job, () -> run(job, documentIds, id -> id, view::rebuild, () -> {
            int removed;
            try {
                removed = view.removeOrphans();
            } catch (IngestException refused) { // e.g. a migration of the tenant began meanwhile
                throw new IngestException(refused.status(), refused.type(), "the documents were re-pushed, but orphaned and"
                        + " stale chunks were not removed: " + refused.getMessage() + "; run index:rebuild again later", refused);
            }
            LOG.info(() -> "rebuild job " + job.id() + " of " + namespace + " removed " + removed + " orphaned or stale chunks");
        }, NOT_REBUILT));
        return job;
    }

    /**
     * Queues the created job's work; a job that cannot be queued is failed, so it does not stay QUEUED (and, a rebuild,
     * block the next). A queued job counts as running for the stop, which waits for it: it then runs at once, every
     * document interrupted, so that no job is left QUEUED by a clean stop.
     */
    private void enqueue(String tenant, IngestJob job, Runnable work) {
        try {
            stop.execute(task -> queue.submit(tenant, task), work);
        } catch (RuntimeException refused) {
            try {
                dataPlane.jobs().fail(job.id(), "not started: the server could not run it (" + refused.getClass().getSimpleName() + ")");
            } catch (RuntimeException alsoFailed) {
                refused.addSuppressed(alsoFailed);
            }
            throw refused;
        }
    }

    /**
     * Once requested, running jobs finish their documents in flight, fail the rest ({@code job-interrupted}) and end; a
     * queued job does the same when its turn comes.
     */
    @Override
    public GracefulStop gracefulStop() {
        return stop;
    }

    /**
     * Where jobs and their documents run: the managed executor, until it refuses them — Liberty's quiesce shuts it to new
     * tasks before the application hears of the stop — which begins the stop; the refused task then runs here, as the
     * interrupted outcome it now is (a job: every document not begun failed).
     */
    private void execute(Runnable task) {
        try {
            executor.execute(task);
        } catch (RejectedExecutionException shutDown) {
            stop.request();
            task.run();
        }
    }

    private static IngestJob.Outcome outcomeOf(String documentId, Supplier<IngestJob.Outcome> work) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            if (FailedOutcomes.unexpected(e)) {
                LOG.log(Level.SEVERE, "ingest of '" + documentId + "' failed", e);
            }
            return FailedOutcomes.of(documentId, 0, e, "the previous version, if any, is unchanged");
        }
    }

    /**
     * Records one outcome per item, in the items' order and in groups ({@link OutcomeBatch}: one transaction for several
     * documents, none held longer than a quarter second), then runs {@code afterwards}; the job is finished whatever
     * happens (FAILED with the reason when a refusal such as a migration's 409 ends it early). Up to {@link #parallelism} items are in flight, the next starting as soon as any finishes
     * ({@link OrderedWindow}); a job naming one document twice runs one item at a time, so its last version is the last
     * one sent, as it always was. Once the server is stopping, the documents not yet begun fail with {@code notBegun}
     * and {@code afterwards} is skipped.
     */
    private <T> void run(IngestJob job, List<T> items, Function<T, String> documentIdOf, Function<T, IngestJob.Outcome> work, Runnable afterwards,
                         String notBegun) {
        JobRepository jobs = dataPlane.jobs();
        String jobId = job.id();
        boolean gone = false;
        String refusal = null;
        try {
            jobs.markRunning(jobId);
            boolean distinct = items.stream().map(documentIdOf).distinct().count() == items.size();
            OutcomeBatch outcomes = new OutcomeBatch(batch -> jobs.recordOutcomes(jobId, batch));
            AtomicInteger interrupted = new AtomicInteger();
            try {
                OrderedWindow.run(items, distinct ? Math.max(1, parallelism) : 1, this::execute, item -> {
                    if (stop.requested()) {
                        interrupted.incrementAndGet();
                        return IngestJob.Outcome.failed(documentIdOf.apply(item), 503, "job-interrupted", notBegun);
                    }
                    return outcomeOf(documentIdOf.apply(item), () -> work.apply(item));
                }, outcomes);
            } finally {
                outcomes.flush(); // before the job finishes: its status tells the client these documents are done
            }
            if (interrupted.get() > 0) {
                LOG.info(() -> "job " + jobId + " of tenant " + job.tenant() + " ended early: this server is stopping; the " + interrupted.get()
                        + " documents it had not begun are failed (job-interrupted)");
            } else {
                afterwards.run();
            }
        } catch (RuntimeException e) {
            if (e instanceof IngestException refused && refused.status() < 500) {
                // the caller's kind of refusal, not a fault: the job ends FAILED saying why
                refusal = refused.getMessage();
                LOG.info(() -> "job " + jobId + " of " + job.tenant() + " ended early: " + refused.getMessage());
            } else {
                gone = vanished(jobs, job);
                if (gone) { // its tenant was purged while it ran: the job's row went with it, nothing is left to report to
                    LOG.info(() -> "job " + jobId + " of tenant " + job.tenant() + " stopped: the tenant was purged while it ran");
                } else {
                    LOG.log(Level.SEVERE, "job " + jobId + " aborted", e);
                }
            }
        } finally {
            try {
                if (refusal != null) {
                    jobs.fail(jobId, refusal);
                } else if (!gone) {
                    jobs.finish(jobId);
                }
            } finally {
                completions.finished(jobId);
            }
        }
    }

    private static boolean vanished(JobRepository jobs, IngestJob job) {
        try {
            return jobs.find(job.tenant(), job.id()).isEmpty();
        } catch (RuntimeException unknown) {
            return false;
        }
    }
}
