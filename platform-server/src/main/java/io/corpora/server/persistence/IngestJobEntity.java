package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;

/** A row of {@code ingest_jobs} (ingest and re-embed jobs); its outcomes are {@link IngestJobOutcomeEntity} rows. Mapped by {@link JpaJobRepository}. */
@Entity
@Table(name = "ingest_jobs")
public class IngestJobEntity {
    @Id
    @Column(name = "id", length = 64)
    String id;
    @Column(name = "tenant_id", nullable = false)
    String tenantId;
    /** The partition key of the job's namespace; null for a tenant-wide job (a re-embed migration). */
    @Column(name = "partition_id", length = 64)
    String partitionId;
    @Column(name = "kind", nullable = false)
    String kind;
    @Column(name = "status", nullable = false)
    String status;
    @Column(name = "total", nullable = false)
    int total;
    @Column(name = "succeeded", nullable = false)
    int succeeded;
    @Column(name = "skipped", nullable = false)
    int skipped;
    @Column(name = "failed", nullable = false)
    int failed;
    @Column(name = "error")
    String error;
    /** REEMBED jobs only: the target embedder choice and the fingerprint ids it migrates between. */
    @Column(name = "target_embedder_provider")
    String targetEmbedderProvider;
    @Column(name = "target_embedder_config")
    String targetEmbedderConfig;
    @Column(name = "from_embedder")
    String fromEmbedder;
    @Column(name = "to_embedder")
    String toEmbedder;
    /** RELOCATE jobs only: the store choices the corpus moves from and to (V11). */
    @Column(name = "from_store_provider")
    String fromStoreProvider;
    @Column(name = "from_store_config")
    String fromStoreConfig;
    @Column(name = "target_store_provider")
    String targetStoreProvider;
    @Column(name = "target_store_config")
    String targetStoreConfig;
    /** The server (ServerIdentity#id) whose lease the job runs under; null for a job recorded before leases. */
    @Column(name = "owner", length = 200)
    String owner;
    @Column(name = "created_at", nullable = false)
    OffsetDateTime createdAt;
    @Column(name = "updated_at", nullable = false)
    OffsetDateTime updatedAt;
    @Version
    @Column(name = "row_version", nullable = false)
    long rowVersion;
}
