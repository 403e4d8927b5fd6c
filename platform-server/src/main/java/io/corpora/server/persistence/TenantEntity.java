package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.time.OffsetDateTime;

/** A row of {@code tenants}; plugin configs and partitions are JSON text. Mapped by {@link JpaTenantRepository}. */
@Entity
@Table(name = "tenants")
public class TenantEntity {
    @Id
    @Column(name = "id", length = 64)
    String id;
    @Column(name = "display_name", nullable = false)
    String displayName;
    @Column(name = "state", nullable = false)
    String state;
    @Column(name = "store_provider", nullable = false)
    String storeProvider;
    @Column(name = "store_config", nullable = false)
    String storeConfig;
    @Column(name = "embedder_provider", nullable = false)
    String embedderProvider;
    @Column(name = "embedder_config", nullable = false)
    String embedderConfig;
    @Column(name = "reranker_provider")
    String rerankerProvider;
    @Column(name = "reranker_config")
    String rerankerConfig;
    @Column(name = "generator_provider")
    String generatorProvider;
    @Column(name = "generator_config")
    String generatorConfig;
    /** JSON object (promptTemplate, multiQueryPhrasings, hyde, maxTokens); null for the defaults. */
    @Column(name = "answer_policy")
    String answerPolicy;
    @Column(name = "filter_hook_provider")
    String filterHookProvider;
    @Column(name = "filter_hook_config")
    String filterHookConfig;
    @Column(name = "partitions", nullable = false)
    String partitions;
    /** JSON array of origins; null when the tenant allows no URL ingest. */
    @Column(name = "ingest_allowed_origins")
    String ingestAllowedOrigins;
    @Column(name = "ingest_private_origins")
    String ingestPrivateOrigins;
    @Column(name = "retrieval_mode", nullable = false)
    String retrievalMode;
    @Column(name = "retrieval_top_k", nullable = false)
    int retrievalTopK;
    @Column(name = "retrieval_min_score")
    Double retrievalMinScore;
    @Column(name = "retrieval_max_chars")
    Integer retrievalMaxChars;
    @Column(name = "retrieval_rerank", nullable = false)
    boolean retrievalRerank;
    /** The hybrid fusion as JSON (method, k, vectorWeight, keywordWeight, alpha, normalization); null: the standard. */
    @Column(name = "retrieval_fusion", length = 1000)
    String retrievalFusion;
    @Column(name = "quota_max_documents", nullable = false)
    long quotaMaxDocuments;
    @Column(name = "quota_max_chunks", nullable = false)
    long quotaMaxChunks;
    @Column(name = "quota_max_bytes", nullable = false)
    long quotaMaxBytes;
    @Column(name = "quota_requests_per_minute", nullable = false)
    int quotaRequestsPerMinute;
    @Column(name = "quota_ingests_per_minute", nullable = false)
    int quotaIngestsPerMinute;
    @Column(name = "active_embedder")
    String activeEmbedder;
    @Column(name = "created_at", nullable = false)
    OffsetDateTime createdAt;
    @Column(name = "updated_at", nullable = false)
    OffsetDateTime updatedAt;
    @Version
    @Column(name = "revision", nullable = false)
    long revision;
}
