package io.corpora.server.persistence;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.spi.Identifiers;
import io.corpora.spi.Namespace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.PersistenceContext;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The document registry on JPA. Version changes lock the document's row ({@code SELECT … FOR UPDATE}), so two
 * writers of one document serialize; a version that was superseded meanwhile can no longer be activated.
 */
@ApplicationScoped
@ControlPlaneTransactional
public class JpaDocumentRegistry implements DocumentRegistry {

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    /** Stamped on every version this server begins: its lease owns the write until it is activated or failed. */
    @jakarta.inject.Inject
    io.corpora.server.cluster.ServerIdentity identity;

    private String writer;

    public JpaDocumentRegistry() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaDocumentRegistry(EntityManager em, Clock clock) {
        this(em, clock, null);
    }

    /** Outside the container, as server {@code writer} (tests of lease adoption). */
    JpaDocumentRegistry(EntityManager em, Clock clock, String writer) {
        this.em = em;
        this.clock = clock;
        this.writer = writer;
    }

    /** Never null: the lease sweep finds pending versions by their writer. */
    private String writer() {
        return identity != null ? identity.id() : writer != null ? writer : ServerLeases.NO_LEASE_WRITER;
    }

    /** The record's columns, never {@code body_text}: lookups and lists must not load document bodies. */
    private static final String RECORD_COLUMNS = "SELECT d.tenantId, d.partitionId, d.documentId, d.source, d.mediaType, d.status,"
            + " d.activeVersion, d.pendingVersion, d.contentHash, d.chunkCount, d.bytes, d.metadata, d.error, d.createdAt, d.updatedAt"
            + " FROM DocumentEntity d WHERE d.tenantId = :t AND d.partitionId = :p";
    /** The same columns in SQL, in the same order, for {@link #recordOf}. */
    private static final String RECORD_SQL_COLUMNS = "d.tenant_id, d.partition_id, d.document_id, d.source, d.media_type, d.status,"
            + " d.active_version, d.pending_version, d.content_hash, d.chunk_count, d.bytes, d.metadata, d.error, d.created_at, d.updated_at";
    /** Ids per lookup statement: one statement for every lookup a retrieval makes (its candidates number far fewer). */
    static final int IDS_PER_QUERY = 500;

    @Override
    public Optional<DocumentRecord> find(Namespace namespace, String documentId) {
        return records(namespace, " AND d.documentId = :id", "id", documentId, 1).stream().findFirst();
    }

    @Override
    public List<DocumentRecord> list(Namespace namespace, String afterId, int limit) {
        return afterId == null ? records(namespace, " ORDER BY d.documentId", null, null, limit)
                : records(namespace, " AND d.documentId > :after ORDER BY d.documentId", "after", afterId, limit);
    }

    @Override
    public List<DocumentRecord> findAll(Namespace namespace, Collection<String> documentIds) {
        List<DocumentRecord> found = new ArrayList<>();
        for (List<String> ids : batches(documentIds)) {
            DocumentLookup lookup = DocumentLookup.of(namespace, ids, RECORD_SQL_COLUMNS, " ORDER BY d.document_id");
            for (Object row : lookup.nativeQuery(em).getResultList()) {
                found.add(recordOf((Object[]) row));
            }
        }
        return found;
    }

    /**
     * Sent as plain JDBC on the transaction's connection, not as a native query: EclipseLink's handling of that query
     * (binding its three parameters per id into a record, quadratic in their number, and preparing the call) cost
     * about as much CPU as the database's lookups, on the lookup every retrieval makes for each leg's hits. Reads what
     * is committed or flushed: its callers, retrievals, write nothing.
     */
    @Override
    public Map<String, Integer> activeVersions(Namespace namespace, Collection<String> documentIds) {
        Map<String, Integer> versions = new HashMap<>();
        List<List<String>> batches = batches(documentIds);
        if (batches.isEmpty()) {
            return versions;
        }
        Connection connection = em.unwrap(Connection.class); // the transaction's: EclipseLink releases it when that ends
        for (List<String> ids : batches) {
            DocumentLookup lookup = DocumentLookup.activeVersions(namespace, ids);
            try (PreparedStatement statement = lookup.prepare(connection); ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    versions.put(rows.getString(1), rows.getInt(2));
                }
            } catch (SQLException e) {
                throw new PersistenceException("looking up the active versions of " + ids.size() + " documents of " + namespace, e);
            }
        }
        return versions;
    }

    @Override
    public Optional<String> text(Namespace namespace, String documentId) {
        return em.createQuery("SELECT d.text FROM DocumentEntity d WHERE d.tenantId = :t AND d.partitionId = :p AND d.documentId = :id",
                        String.class)
                .setParameter("t", namespace.tenant()).setParameter("p", namespace.partitionKey()).setParameter("id", documentId)
                .getResultList().stream().filter(java.util.Objects::nonNull).findFirst();
    }

    private List<DocumentRecord> records(Namespace namespace, String condition, String parameter, Object value, int limit) {
        var query = em.createQuery(RECORD_COLUMNS + condition, Object[].class)
                .setParameter("t", namespace.tenant()).setParameter("p", namespace.partitionKey());
        if (parameter != null) {
            query.setParameter(parameter, value);
        }
        return query.setMaxResults(Math.max(1, limit)).getResultList().stream().map(JpaDocumentRegistry::recordOf).toList();
    }

    private static List<List<String>> batches(Collection<String> documentIds) {
        List<String> distinct = documentIds.stream().distinct().toList();
        List<List<String>> batches = new ArrayList<>();
        for (int from = 0; from < distinct.size(); from += IDS_PER_QUERY) {
            batches.add(distinct.subList(from, Math.min(distinct.size(), from + IDS_PER_QUERY)));
        }
        return batches;
    }

    /** A document with an active version keeps that version's description until the new one is activated. */
    @Override
    public int beginVersion(Namespace namespace, String documentId, String source, String mediaType, Map<String, Object> metadata, long bytes) {
        Identifiers.requireDocumentId(documentId);
        DocumentEntity row = em.find(DocumentEntity.class, key(namespace, documentId), LockModeType.PESSIMISTIC_WRITE);
        boolean created = row == null;
        if (created) {
            row = new DocumentEntity();
            row.tenantId = namespace.tenant();
            row.partitionId = namespace.partitionKey();
            row.documentId = documentId;
            row.createdAt = Timestamps.now(clock);
        }
        int version = row.lastVersion + 1;
        row.lastVersion = version;
        row.pendingVersion = version;
        row.writer = writer();
        row.status = DocumentStatus.INGESTING.name();
        if (row.activeVersion == 0) {
            describe(row, new DocumentDescription(source, mediaType, metadata, bytes));
        }
        row.error = null;
        row.updatedAt = Timestamps.now(clock);
        if (created) {
            em.persist(row);
        }
        try {
            em.flush();
        } catch (PersistenceException e) {
            if (created && ConstraintViolations.uniqueKey(e)) { // no row to lock: two first versions raced to insert it
                throw new WriteRefusedException(WriteRefusedException.Reason.CONCURRENT_WRITE, "document '" + documentId + "' in "
                        + namespace + " was created by another write at the same moment");
            }
            if (created && ConstraintViolations.foreignKey(e)) { // the tenant row went: purged while this ingest began
                throw new WriteRefusedException(WriteRefusedException.Reason.TENANT_GONE, "tenant '" + namespace.tenant()
                        + "' was deleted while '" + documentId + "' was being written");
            }
            throw e;
        }
        return version;
    }

    @Override
    public DocumentRecord activateVersion(Namespace namespace, String documentId, int version, String contentHash, int chunkCount, String text,
                                          DocumentDescription description, String embedderId, PluginChoice store) {
        requireWritable(namespace.tenant(), embedderId, store);
        DocumentEntity row = em.find(DocumentEntity.class, key(namespace, documentId), LockModeType.PESSIMISTIC_WRITE);
        if (row == null) { // a delete of the document won while this version was written (it was a 500 NoSuchElementException)
            throw new WriteRefusedException(WriteRefusedException.Reason.CONCURRENT_WRITE, "document '" + documentId + "' in " + namespace
                    + " was deleted while version " + version + " was being written");
        }
        if (row.pendingVersion != version) {
            throw new WriteRefusedException(WriteRefusedException.Reason.CONCURRENT_WRITE, "version " + version + " of document '" + documentId
                    + "' in " + namespace + " is not the one being written (pending: " + row.pendingVersion + ", active: " + row.activeVersion
                    + "): another write of the same document began meanwhile");
        }
        // What the tenant's usage gains: a first active version counts the document, a replace the difference.
        boolean replaces = row.activeVersion > 0;
        long addedChunks = chunkCount - (replaces ? row.chunkCount : 0);
        long addedBytes = description.bytes() - (replaces ? row.bytes : 0);
        row.activeVersion = version;
        row.pendingVersion = 0;
        row.writer = null;
        row.cleanupPending = version > 1; // chunks of an earlier version may be in the store until the caller deletes them
        row.status = DocumentStatus.ACTIVE.name();
        row.contentHash = contentHash;
        row.chunkCount = chunkCount;
        row.text = text;
        describe(row, description);
        row.error = null;
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        TenantUsage.add(em, namespace.tenant(), replaces ? 0 : 1, addedChunks, addedBytes);
        return toRecord(row);
    }

    /**
     * The tenant row's lock orders this activation (or a delete) against a migration's start (JpaJobRepository#createReembed and
     * #createRelocation take the same lock) and its switch: an activation committed before a migration starts is seen by its copy, and one after
     * it is refused, on whichever server either runs. A keyword-only version (no embedder) is refused during a migration
     * too: a relocation moves it like any other.
     */
    private void requireWritable(String tenantId, String embedderId, PluginChoice store) {
        TenantEntity tenant = em.find(TenantEntity.class, tenantId, LockModeType.PESSIMISTIC_WRITE);
        if (tenant == null && embedderId == null && store == null) {
            return; // a registry written without a tenant row (keyword-only tools and tests): no migration to order against
        }
        if (tenant == null) { // purged while the version was written (it was a 500 NoSuchElementException)
            throw new WriteRefusedException(WriteRefusedException.Reason.TENANT_GONE, "tenant '" + tenantId + "' was deleted while it was written");
        }
        List<String> migrations = em.createQuery("SELECT j.kind FROM IngestJobEntity j WHERE j.tenantId = :t AND j.kind IN :kinds"
                        + " AND j.status IN :open", String.class)
                .setParameter("t", tenantId).setParameter("kinds", JpaJobRepository.MIGRATION_KINDS)
                .setParameter("open", JpaJobRepository.UNFINISHED).getResultList();
        if (!migrations.isEmpty()) {
            throw new WriteRefusedException(WriteRefusedException.Reason.MIGRATION_IN_PROGRESS, "tenant '" + tenantId + "' is being "
                    + (migrations.contains(JobKind.RELOCATE.name()) ? "relocated to another store" : "re-embedded")
                    + "; its documents cannot change until the migration ends");
        }
        if (embedderId != null && tenant.activeEmbedder != null && !tenant.activeEmbedder.equals(embedderId)) {
            throw new WriteRefusedException(WriteRefusedException.Reason.EMBEDDER_CHANGED, "tenant '" + tenantId
                    + "' switched to embedder " + tenant.activeEmbedder + " while this version was embedded by " + embedderId);
        }
        if (store != null && !store.equals(new PluginChoice(tenant.storeProvider, JsonText.stringMap(tenant.storeConfig)))) {
            // Names providers only: store options may hold hosts and credentials.
            throw new WriteRefusedException(WriteRefusedException.Reason.STORE_MOVED, "tenant '" + tenantId + "' moved to another store ("
                    + tenant.storeProvider + ") while this version was written to its previous one (" + store.provider() + ")");
        }
    }

    private static void describe(DocumentEntity row, DocumentDescription description) {
        row.source = description.source();
        row.mediaType = description.mediaType();
        row.metadata = JsonText.write(description.metadata());
        row.bytes = description.bytes();
    }

    @Override
    public List<String> awaitingCleanup(Namespace namespace) {
        return em.createQuery("SELECT d.documentId FROM DocumentEntity d WHERE d.tenantId = :t AND d.partitionId = :p"
                        + " AND d.cleanupPending = TRUE ORDER BY d.documentId", String.class)
                .setParameter("t", namespace.tenant()).setParameter("p", namespace.partitionKey()).getResultList();
    }

    @Override
    public void cleanedUp(Namespace namespace, String documentId, int activeVersion) {
        DocumentEntity row = em.find(DocumentEntity.class, key(namespace, documentId), LockModeType.PESSIMISTIC_WRITE);
        if (row != null && row.activeVersion == activeVersion && row.cleanupPending) {
            row.cleanupPending = false;
            em.flush();
        }
    }

    /** A stale version (superseded by a newer begin) is ignored: the newer writer owns the document's status. */
    @Override
    public void failVersion(Namespace namespace, String documentId, int version, String error) {
        DocumentEntity row = em.find(DocumentEntity.class, key(namespace, documentId), LockModeType.PESSIMISTIC_WRITE);
        if (row == null || row.pendingVersion != version) {
            return;
        }
        row.pendingVersion = 0;
        row.writer = null;
        row.status = DocumentStatus.FAILED.name();
        row.error = error;
        row.updatedAt = Timestamps.now(clock);
        em.flush();
    }

    @Override
    public boolean delete(Namespace namespace, String documentId, Runnable removeChunks) {
        requireWritable(namespace.tenant(), null, null);
        DocumentEntity row = em.find(DocumentEntity.class, key(namespace, documentId), LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            return false;
        }
        removeChunks.run();
        em.remove(row);
        em.flush();
        if (row.activeVersion > 0) {
            TenantUsage.add(em, namespace.tenant(), -1, -row.chunkCount, -row.bytes);
        }
        return true;
    }

    @Override
    public int deleteTenant(String tenantId) {
        int deleted = em.createQuery("DELETE FROM DocumentEntity d WHERE d.tenantId = :t").setParameter("t", tenantId).executeUpdate();
        TenantUsage.clear(em, tenantId);
        return deleted;
    }

    /** Documents, chunks and bytes count documents with an active version; the breakdowns count every row. */
    @Override
    public CorpusStats stats(String tenantId) {
        return stats(tenantId, null);
    }

    @Override
    public CorpusStats stats(Namespace namespace) {
        return stats(namespace.tenant(), namespace.partitionKey());
    }

    /**
     * The tenant's usage row (a quota check reads it before every document it admits), not an aggregate over its
     * documents; the aggregate only for a registry written without a tenant row.
     */
    @Override
    public CorpusStats totals(String tenantId) {
        return TenantUsage.read(em, tenantId).orElseGet(() -> activeTotals(tenantId, null, Map.of(), Map.of()));
    }

    private CorpusStats stats(String tenantId, String partitionKey) {
        String scope = scope(partitionKey);
        Map<String, Long> byPartition = new LinkedHashMap<>();
        for (Object[] row : scoped(em.createQuery("SELECT d.partitionId, COUNT(d) FROM DocumentEntity d" + scope
                + " GROUP BY d.partitionId ORDER BY d.partitionId", Object[].class), tenantId, partitionKey).getResultList()) {
            byPartition.put((String) row[0], ((Number) row[1]).longValue());
        }
        Map<String, Long> byStatus = new LinkedHashMap<>();
        for (Object[] row : scoped(em.createQuery("SELECT d.status, COUNT(d) FROM DocumentEntity d" + scope
                + " GROUP BY d.status ORDER BY d.status", Object[].class), tenantId, partitionKey).getResultList()) {
            byStatus.put((String) row[0], ((Number) row[1]).longValue());
        }
        return activeTotals(tenantId, partitionKey, byPartition, byStatus);
    }

    /** Documents, chunks and bytes of the active versions in the tenant (or one partition of it): one aggregate. */
    private CorpusStats activeTotals(String tenantId, String partitionKey, Map<String, Long> byPartition, Map<String, Long> byStatus) {
        Object[] totals = scoped(em.createQuery("SELECT COUNT(d), COALESCE(SUM(d.chunkCount), 0), COALESCE(SUM(d.bytes), 0)"
                + " FROM DocumentEntity d" + scope(partitionKey) + " AND d.activeVersion > 0", Object[].class), tenantId, partitionKey).getSingleResult();
        return new CorpusStats(((Number) totals[0]).longValue(), ((Number) totals[1]).longValue(), ((Number) totals[2]).longValue(),
                byPartition, byStatus);
    }

    private static String scope(String partitionKey) {
        return " WHERE d.tenantId = :t" + (partitionKey == null ? "" : " AND d.partitionId = :p");
    }

    private static <T> jakarta.persistence.TypedQuery<T> scoped(jakarta.persistence.TypedQuery<T> query, String tenantId, String partitionKey) {
        query.setParameter("t", tenantId);
        return partitionKey == null ? query : query.setParameter("p", partitionKey);
    }


    private static DocumentEntity.Key key(Namespace namespace, String documentId) {
        return new DocumentEntity.Key(namespace.tenant(), namespace.partitionKey(), documentId);
    }

    static DocumentRecord toRecord(DocumentEntity row) {
        return new DocumentRecord(Namespace.of(row.tenantId, row.partitionId), row.documentId, row.source, row.mediaType,
                DocumentStatus.valueOf(row.status), row.activeVersion, row.pendingVersion, row.contentHash, row.chunkCount, row.bytes,
                JsonText.objectMap(row.metadata), row.error, Timestamps.instant(row.createdAt), Timestamps.instant(row.updatedAt));
    }

    /** A row of {@link #RECORD_COLUMNS}, in its order. */
    private static DocumentRecord recordOf(Object[] c) {
        return new DocumentRecord(Namespace.of((String) c[0], (String) c[1]), (String) c[2], (String) c[3], (String) c[4],
                DocumentStatus.valueOf((String) c[5]), ((Number) c[6]).intValue(), ((Number) c[7]).intValue(), (String) c[8],
                ((Number) c[9]).intValue(), ((Number) c[10]).longValue(), JsonText.objectMap((String) c[11]), (String) c[12],
                Timestamps.instant(c[13]), Timestamps.instant(c[14]));
    }
}
