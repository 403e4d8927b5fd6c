package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import java.io.Serializable;
import java.util.Objects;

/** A row of {@code ingest_job_outcomes}: one document's outcome, at its position in the job. */
@Entity
@Table(name = "ingest_job_outcomes")
@IdClass(IngestJobOutcomeEntity.Key.class)
public class IngestJobOutcomeEntity {
    @Id
    @Column(name = "job_id", length = 64)
    String jobId;
    @Id
    @Column(name = "position")
    int position;
    @Column(name = "document_id")
    String documentId;
    @Column(name = "result", nullable = false)
    String result;
    @Column(name = "version", nullable = false)
    int version;
    @Column(name = "chunks", nullable = false)
    int chunks;
    @Column(name = "http_status", nullable = false)
    int httpStatus;
    @Column(name = "error")
    String error;
    /** The kind of problem of a failure (V16); null otherwise and on rows recorded before. */
    @Column(name = "problem_type", length = 64)
    String problemType;

    /** The composite primary key. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        String jobId;
        int position;

        public Key() {}

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(jobId, k.jobId) && position == k.position;
        }

        @Override
        public int hashCode() {
            return Objects.hash(jobId, position);
        }
    }
}
