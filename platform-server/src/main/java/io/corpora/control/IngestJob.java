package io.corpora.control;

import java.time.Instant;
import java.util.List;

/**
 * An ingest job: one or more documents processed in the background, with per-document outcomes.
 *
 * @param total     documents in the job
 * @param succeeded documents stored (a new version activated)
 * @param skipped   documents unchanged (deduplicated, not re-embedded)
 * @param failed    documents that failed (each listed in {@code outcomes})
 */
public record IngestJob(String id, String tenant, JobStatus status, int total, int succeeded, int skipped, int failed,
                        List<Outcome> outcomes, Instant created, Instant updated) {
    public IngestJob {
        outcomes = outcomes == null ? List.of() : List.copyOf(outcomes);
    }

    /** Percentage of documents finished, 0..100. */
    public int percent() {
        return total == 0 ? 100 : (int) Math.floor(100.0 * (succeeded + skipped + failed) / total);
    }

    public boolean finished() {
        return status == JobStatus.SUCCEEDED || status == JobStatus.FAILED || status == JobStatus.PARTIALLY_FAILED;
    }

    /**
     * What happened to one document.
     *
     * @param result stored | skipped | failed
     * @param status the HTTP status a single-document request would have answered (201, 200, 4xx/5xx)
     */
    public record Outcome(String documentId, String result, int version, int chunks, int status, String error) {}
}
