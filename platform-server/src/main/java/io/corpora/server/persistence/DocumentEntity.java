package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.IdClass;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.io.Serializable;
import java.time.OffsetDateTime;
import java.util.Objects;

/** A row of {@code documents}, keyed by namespace (tenant + partition key) and document id. Mapped by {@link JpaDocumentRegistry}. */
@Entity
@Table(name = "documents")
@IdClass(DocumentEntity.Key.class)
public class DocumentEntity {
    @Id
    @Column(name = "tenant_id", length = 64)
    String tenantId;
    @Id
    @Column(name = "partition_id", length = 64)
    String partitionId;
    @Id
    @Column(name = "document_id", length = 512)
    String documentId;
    @Column(name = "source")
    String source;
    @Column(name = "media_type")
    String mediaType;
    @Column(name = "status", nullable = false)
    String status;
    @Column(name = "active_version", nullable = false)
    int activeVersion;
    @Column(name = "pending_version", nullable = false)
    int pendingVersion;
    /** Older versions' chunks may still be in the store (see DocumentRegistry#awaitingCleanup). */
    @Column(name = "cleanup_pending", nullable = false)
    boolean cleanupPending;
    /** The highest version ever begun; never reused, even after a failure. */
    @Column(name = "last_version", nullable = false)
    int lastVersion;
    @Column(name = "content_hash")
    String contentHash;
    @Column(name = "chunk_count", nullable = false)
    int chunkCount;
    @Column(name = "bytes", nullable = false)
    long bytes;
    @Column(name = "metadata", nullable = false)
    String metadata;
    @Column(name = "body_text")
    String text;
    /** The server (ServerIdentity#id) writing the pending version; null when none is pending. */
    @Column(name = "writer", length = 200)
    String writer;
    @Column(name = "error")
    String error;
    @Column(name = "created_at", nullable = false)
    OffsetDateTime createdAt;
    @Column(name = "updated_at", nullable = false)
    OffsetDateTime updatedAt;
    @Version
    @Column(name = "row_version", nullable = false)
    long rowVersion;

    /** The composite primary key. */
    public static class Key implements Serializable {
        private static final long serialVersionUID = 1L;
        String tenantId;
        String partitionId;
        String documentId;

        public Key() {}

        Key(String tenantId, String partitionId, String documentId) {
            this.tenantId = tenantId;
            this.partitionId = partitionId;
            this.documentId = documentId;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Objects.equals(tenantId, k.tenantId) && Objects.equals(partitionId, k.partitionId)
                    && Objects.equals(documentId, k.documentId);
        }

        @Override
        public int hashCode() {
            return Objects.hash(tenantId, partitionId, documentId);
        }
    }
}
