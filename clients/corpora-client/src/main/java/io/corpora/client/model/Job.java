package io.corpora.client.model;

import java.util.List;

/**
 * An ingest, index rebuild, re-embed or store relocation job.
 *
 * @param kind ingest, rebuild, reembed or relocate
 * @param status QUEUED, RUNNING, SUCCEEDED, PARTIALLY_FAILED or FAILED
 * @param reembed what a re-embed job migrates; null for other kinds
 */
public record Job(String id, String kind, String partition, String status, int total, int succeeded, int skipped, int failed,
                  int percent, JobReembed reembed, String error, List<IngestOutcome> outcomes, String created, String updated) {

    /** Whether the job left QUEUED and RUNNING. */
    public boolean finished() {
        return !"QUEUED".equals(status) && !"RUNNING".equals(status);
    }
}
