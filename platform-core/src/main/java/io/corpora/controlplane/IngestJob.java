package io.corpora.controlplane;

import java.time.Instant;
import java.util.List;

/**
 * A background job over documents, with per-document outcomes: an ingest, a re-embed migration or a store relocation.
 *
 * @param partition the partition key of the namespace the job writes to; null for a tenant-wide job (a re-embed
 *                  migration, or one recorded before jobs kept their partition)
 * @param reembed   what a {@link JobKind#REEMBED} job migrates to (persisted, so a restart can resume it); null otherwise
 * @param relocate  where a {@link JobKind#RELOCATE} job moves the corpus from and to (persisted likewise); null otherwise
 * @param error     why the job as a whole failed (e.g. a migration rolled back), or null
 * @param total     documents in the job
 * @param succeeded documents stored (a new version activated)
 * @param skipped   documents unchanged (deduplicated, not re-embedded)
 * @param failed    documents that failed (each listed in {@code outcomes})
 */
public record IngestJob(String id, String tenant, String partition, JobKind kind, JobStatus status, int total, int succeeded, int skipped, int failed,
                        List<Outcome> outcomes, Reembed reembed, Relocate relocate, String error, Instant created, Instant updated) {
    public IngestJob {
        outcomes = outcomes == null ? List.of() : List.copyOf(outcomes);
        if ((kind == JobKind.REEMBED) != (reembed != null)) {
            throw new IllegalArgumentException("a REEMBED job, and only one, carries its migration target");
        }
        if ((kind == JobKind.RELOCATE) != (relocate != null)) {
            throw new IllegalArgumentException("a RELOCATE job, and only one, carries its source and target stores");
        }
    }

    /**
     * A store relocation: the tenant's store choice before and after (their configs may hold secret references, never
     * secrets). The source is kept so that a restart after the switch can still delete the old copy.
     */
    public record Relocate(PluginChoice fromStore, PluginChoice targetStore) {
        public Relocate {
            java.util.Objects.requireNonNull(fromStore, "fromStore");
            java.util.Objects.requireNonNull(targetStore, "targetStore");
        }
    }

    /**
     * The target of a re-embed migration.
     *
     * @param targetEmbedder the embedder choice the tenant switches to (its config may hold secret references, never secrets)
     * @param fromEmbedder   the fingerprint id the corpus carried when the migration started
     * @param toEmbedder     the fingerprint id of {@code targetEmbedder}
     */
    public record Reembed(PluginChoice targetEmbedder, String fromEmbedder, String toEmbedder) {
        public Reembed {
            java.util.Objects.requireNonNull(targetEmbedder, "targetEmbedder");
            java.util.Objects.requireNonNull(toEmbedder, "toEmbedder");
        }
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
     * @param problem for a failure, the kind of problem a single-document request would have answered (e.g.
     *                {@code concurrent-write}, {@code quota-exceeded}); null otherwise, and for outcomes recorded
     *                before it was kept
     */
    public record Outcome(String documentId, String result, int version, int chunks, int status, String error, String problem) {

        public Outcome(String documentId, String result, int version, int chunks, int status, String error) {
            this(documentId, result, version, chunks, status, error, null);
        }

        /** A document the ingest refused, with the refusal's status and kind of problem. */
        public static Outcome failed(String documentId, int status, String problem, String error) {
            return failed(documentId, 0, status, problem, error);
        }

        /** A document that failed at {@code version} (0 when none was begun), with the status and kind of problem. */
        public static Outcome failed(String documentId, int version, int status, String problem, String error) {
            return new Outcome(documentId, "failed", version, 0, status, error, problem);
        }
    }
}
