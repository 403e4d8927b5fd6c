package io.corpora.server.dataplane;

import io.corpora.control.IngestJob;
import io.corpora.control.JobRepository;
import io.corpora.control.Tenant;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestRequest;
import io.corpora.spi.Namespace;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs ingest and rebuild jobs on the container's managed executor. Each document succeeds or fails alone; the job
 * records every outcome, so a bad document in a batch never stops the others.
 */
@ApplicationScoped
public class JobRunner {

    private static final Logger LOG = Logger.getLogger(JobRunner.class.getName());

    @Resource
    ManagedExecutorService executor;

    @Inject
    DataPlane dataPlane;

    /** Creates the job and starts it in the background; returns it as queued. */
    public IngestJob submit(Tenant tenant, Namespace namespace, List<IngestRequest> requests) {
        JobRepository jobs = dataPlane.jobs();
        IngestJob job = jobs.create(tenant.id(), requests.size());
        executor.execute(() -> run(job.id(), requests, IngestRequest::documentId, request -> dataPlane.ingestion()
                .ingest(tenant, dataPlane.runtime(tenant), namespace, request), () -> {}));
        return job;
    }

    /**
     * Creates a job re-pushing every document the namespace's registry holds now (one outcome each), then removing the
     * chunks no registered document owns and stale versions of documents not being written; returns it as queued.
     */
    public IngestJob submitRebuild(Tenant tenant, Namespace namespace) {
        List<String> documentIds = dataPlane.ingestion().rebuildable(namespace);
        IngestJob job = dataPlane.jobs().create(tenant.id(), documentIds.size());
        executor.execute(() -> run(job.id(), documentIds, id -> id,
                id -> dataPlane.ingestion().rebuild(tenant, dataPlane.runtime(tenant), namespace, id),
                () -> {
                    int removed = dataPlane.ingestion().removeOrphans(tenant, dataPlane.runtime(tenant), namespace);
                    LOG.info(() -> "rebuild job " + job.id() + " of " + namespace + " removed " + removed + " orphaned or stale chunks");
                }));
        return job;
    }

    /** Ingests one document and turns any failure into an outcome. */
    public IngestJob.Outcome ingestOne(Tenant tenant, Namespace namespace, IngestRequest request) {
        return outcomeOf(request.documentId(), () -> dataPlane.ingestion().ingest(tenant, dataPlane.runtime(tenant), namespace, request));
    }

    private static IngestJob.Outcome outcomeOf(String documentId, Supplier<IngestJob.Outcome> work) {
        try {
            return work.get();
        } catch (IngestException e) {
            return new IngestJob.Outcome(documentId, "failed", 0, 0, e.status(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return new IngestJob.Outcome(documentId, "failed", 0, 0, 400, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "ingest of '" + documentId + "' failed", e);
            return new IngestJob.Outcome(documentId, "failed", 0, 0, 500,
                    "internal error (" + e.getClass().getSimpleName() + "); the previous version, if any, is unchanged");
        }
    }

    /** Records one outcome per item, then runs {@code afterwards}; the job is finished whatever happens. */
    private <T> void run(String jobId, List<T> items, Function<T, String> documentIdOf, Function<T, IngestJob.Outcome> work, Runnable afterwards) {
        JobRepository jobs = dataPlane.jobs();
        try {
            jobs.markRunning(jobId);
            for (T item : items) {
                jobs.recordOutcome(jobId, outcomeOf(documentIdOf.apply(item), () -> work.apply(item)));
            }
            afterwards.run();
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "job " + jobId + " aborted", e);
        } finally {
            jobs.finish(jobId);
        }
    }
}
