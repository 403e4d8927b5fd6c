package io.corpora.control;

import java.util.List;
import java.util.Optional;

/** Ingest jobs (JPA-backed in the server). */
public interface JobRepository {

    IngestJob create(String tenant, int total);

    Optional<IngestJob> find(String tenant, String jobId);

    /** Newest first. */
    List<IngestJob> list(String tenant, int limit);

    void markRunning(String jobId);

    /** Appends an outcome and bumps the matching counter. */
    void recordOutcome(String jobId, IngestJob.Outcome outcome);

    /** Sets the final status from the counters. */
    IngestJob finish(String jobId);

    /** Jobs left QUEUED or RUNNING by a crash; the server marks them failed (or resumes them) at boot. */
    List<IngestJob> unfinished();
}
