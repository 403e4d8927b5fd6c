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
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs ingest jobs on the container's managed executor. Each document succeeds or fails alone; the job records
 * every outcome, so a bad document in a batch never stops the others.
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
        executor.execute(() -> run(job.id(), tenant, namespace, requests));
        return job;
    }

    /** Ingests one document and turns any failure into an outcome. */
    public IngestJob.Outcome ingestOne(Tenant tenant, Namespace namespace, IngestRequest request) {
        try {
            return dataPlane.ingestion().ingest(tenant, dataPlane.runtime(tenant), namespace, request);
        } catch (IngestException e) {
            return new IngestJob.Outcome(request.documentId(), "failed", 0, 0, e.status(), e.getMessage());
        } catch (IllegalArgumentException e) {
            return new IngestJob.Outcome(request.documentId(), "failed", 0, 0, 400, e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "ingest of '" + request.documentId() + "' failed", e);
            return new IngestJob.Outcome(request.documentId(), "failed", 0, 0, 500,
                    "internal error (" + e.getClass().getSimpleName() + "); the previous version, if any, is unchanged");
        }
    }

    private void run(String jobId, Tenant tenant, Namespace namespace, List<IngestRequest> requests) {
        JobRepository jobs = dataPlane.jobs();
        try {
            jobs.markRunning(jobId);
            for (IngestRequest request : requests) {
                jobs.recordOutcome(jobId, ingestOne(tenant, namespace, request));
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "ingest job " + jobId + " aborted", e);
        } finally {
            jobs.finish(jobId);
        }
    }
}
