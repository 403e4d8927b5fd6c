package io.corpora.server.persistence;

import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.AnswerPolicy;
import io.corpora.controlplane.IngestPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The tenant registry on JPA. Every method runs in a JTA transaction (joining the caller's, if any). */
@ApplicationScoped
@ControlPlaneTransactional
public class JpaTenantRepository implements TenantRepository {

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    public JpaTenantRepository() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaTenantRepository(EntityManager em, Clock clock) {
        this.em = em;
        this.clock = clock;
    }

    @Override
    public Optional<Tenant> find(String tenantId) {
        return Optional.ofNullable(em.find(TenantEntity.class, tenantId)).map(JpaTenantRepository::toTenant);
    }

    @Override
    public List<Tenant> list(String afterId, int limit) {
        var query = afterId == null
                ? em.createQuery("SELECT t FROM TenantEntity t ORDER BY t.id", TenantEntity.class)
                : em.createQuery("SELECT t FROM TenantEntity t WHERE t.id > :after ORDER BY t.id", TenantEntity.class).setParameter("after", afterId);
        return query.setMaxResults(Math.max(1, limit)).getResultList().stream().map(JpaTenantRepository::toTenant).toList();
    }

    @Override
    public Tenant create(TenantDefinition definition) {
        if (em.find(TenantEntity.class, definition.id()) != null) {
            throw new IllegalStateException("tenant '" + definition.id() + "' already exists");
        }
        TenantEntity row = new TenantEntity();
        row.id = definition.id();
        row.createdAt = Timestamps.now(clock);
        write(definition, row);
        em.persist(row);
        try {
            em.flush();
        } catch (PersistenceException e) {
            if (ConstraintViolations.uniqueKey(e)) { // created by another request since the check above
                throw new IllegalStateException("tenant '" + definition.id() + "' already exists");
            }
            throw e;
        }
        TenantUsage.create(em, definition.id());
        return toTenant(row);
    }

    @Override
    public Tenant update(TenantDefinition definition) {
        TenantEntity row = lock(definition.id());
        write(definition, row);
        em.flush();
        return toTenant(row);
    }

    @Override
    public Tenant setState(String tenantId, TenantState state) {
        TenantEntity row = lock(tenantId);
        row.state = state.name();
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toTenant(row);
    }

    @Override
    public Tenant setActiveEmbedder(String tenantId, String fingerprintId) {
        TenantEntity row = lock(tenantId);
        row.activeEmbedder = fingerprintId;
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toTenant(row);
    }

    @Override
    public Tenant switchEmbedder(String tenantId, String expectedActiveEmbedder, PluginChoice embedder, String fingerprintId) {
        TenantEntity row = lock(tenantId);
        if (!java.util.Objects.equals(row.activeEmbedder, expectedActiveEmbedder)) {
            throw new IllegalStateException("tenant '" + tenantId + "' now carries embedder " + row.activeEmbedder + ", not "
                    + expectedActiveEmbedder + "; the embedder switch is refused");
        }
        row.embedderProvider = embedder.provider();
        row.embedderConfig = JsonText.write(embedder.config());
        row.activeEmbedder = fingerprintId;
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toTenant(row);
    }

    @Override
    public Tenant switchStore(String tenantId, PluginChoice expected, PluginChoice target) {
        TenantEntity row = lock(tenantId);
        PluginChoice current = new PluginChoice(row.storeProvider, JsonText.stringMap(row.storeConfig));
        if (!current.equals(expected)) {
            throw new IllegalStateException("tenant '" + tenantId + "' now uses another store configuration (" + current.provider()
                    + ") than the relocation started from; the store switch is refused");
        }
        row.storeProvider = target.provider();
        row.storeConfig = JsonText.write(target.config());
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toTenant(row);
    }

    /**
     * Removes the tenant with its job history and the first versions still being written (writers that began after its
     * corpus was purged: their activation is refused and they discard their chunks); refuses while a document with an
     * active version remains (purge the corpus first). The audit log keeps the tenant's trail.
     */
    @Override
    public void delete(String tenantId) {
        TenantEntity row = lock(tenantId);
        long documents = em.createQuery("SELECT COUNT(d) FROM DocumentEntity d WHERE d.tenantId = :t AND d.activeVersion > 0", Long.class)
                .setParameter("t", tenantId).getSingleResult();
        if (documents > 0) {
            throw new IllegalStateException("tenant '" + tenantId + "' still has " + documents + " documents in the registry; purge its corpus first");
        }
        // A job still running records its outcomes under its row's lock: holding every job row first makes such a write
        // wait for this delete (and then find its job gone) rather than add an outcome between the two deletes below,
        // which failed the purge on the outcome's foreign key (500).
        em.createQuery("SELECT j FROM IngestJobEntity j WHERE j.tenantId = :t", IngestJobEntity.class).setParameter("t", tenantId)
                .setLockMode(LockModeType.PESSIMISTIC_WRITE).getResultList();
        em.createQuery("DELETE FROM IngestJobOutcomeEntity o WHERE o.jobId IN (SELECT j.id FROM IngestJobEntity j WHERE j.tenantId = :t)")
                .setParameter("t", tenantId).executeUpdate();
        em.createQuery("DELETE FROM IngestJobEntity j WHERE j.tenantId = :t").setParameter("t", tenantId).executeUpdate();
        em.createQuery("DELETE FROM EvaluationEntity e WHERE e.tenantId = :t").setParameter("t", tenantId).executeUpdate();
        TenantUsage.remove(em, tenantId);
        // H2 does not lock the tenant row for a document's insert (PostgreSQL does): a first version begun since the
        // purge's registry delete made the tenant's removal fail on the foreign key (a 500 from :purge). Removed here,
        // right before the tenant; one begun in between still fails it, as a conflict to purge again.
        em.createQuery("DELETE FROM DocumentEntity d WHERE d.tenantId = :t").setParameter("t", tenantId).executeUpdate();
        em.remove(row);
        try {
            em.flush();
        } catch (PersistenceException e) {
            if (ConstraintViolations.foreignKey(e)) {
                throw new IllegalStateException("a document of tenant '" + tenantId + "' began to be written while it was purged;"
                        + " its corpus is purged and it stays marked for deletion: purge it again");
            }
            throw e;
        }
    }

    private TenantEntity lock(String tenantId) {
        TenantEntity row = em.find(TenantEntity.class, tenantId, LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            throw new NoSuchElementException("tenant '" + tenantId + "' does not exist");
        }
        return row;
    }

    private void write(TenantDefinition d, TenantEntity row) {
        row.displayName = d.displayName();
        row.state = d.state().name();
        row.storeProvider = d.store().provider();
        row.storeConfig = JsonText.write(d.store().config());
        row.embedderProvider = d.embedder().provider();
        row.embedderConfig = JsonText.write(d.embedder().config());
        row.rerankerProvider = d.reranker() == null ? null : d.reranker().provider();
        row.rerankerConfig = d.reranker() == null ? null : JsonText.write(d.reranker().config());
        row.generatorProvider = d.generator() == null ? null : d.generator().provider();
        row.generatorConfig = d.generator() == null ? null : JsonText.write(d.generator().config());
        row.answerPolicy = d.answers().equals(AnswerPolicy.DEFAULT) ? null : JsonText.write(answerPolicy(d.answers()));
        PluginChoice hook = d.access().filterHook();
        row.filterHookProvider = hook == null ? null : hook.provider();
        row.filterHookConfig = hook == null ? null : JsonText.write(hook.config());
        row.partitions = JsonText.write(d.access().partitions());
        row.ingestAllowedOrigins = d.ingest().isEmpty() ? null : JsonText.write(d.ingest().allowedOrigins());
        row.ingestPrivateOrigins = d.ingest().isEmpty() ? null : JsonText.write(d.ingest().privateOrigins());
        RetrievalDefaults r = d.retrieval();
        row.retrievalMode = r.mode();
        row.retrievalTopK = r.topK();
        row.retrievalMinScore = r.minScore();
        row.retrievalMaxChars = r.maxChars();
        row.retrievalRerank = r.rerank();
        row.retrievalFusion = fusionJson(r.fusion());
        Quotas q = d.quotas();
        row.quotaMaxDocuments = q.maxDocuments();
        row.quotaMaxChunks = q.maxChunks();
        row.quotaMaxBytes = q.maxBytes();
        row.quotaRequestsPerMinute = q.requestsPerMinute();
        row.quotaIngestsPerMinute = q.ingestsPerMinute();
        row.updatedAt = Timestamps.now(clock);
    }

    private static Map<String, Object> answerPolicy(AnswerPolicy a) {
        Map<String, Object> out = new java.util.TreeMap<>();
        if (a.promptTemplate() != null) {
            out.put("promptTemplate", a.promptTemplate());
        }
        out.put("multiQueryPhrasings", a.multiQueryPhrasings());
        out.put("hyde", a.hyde());
        if (a.maxTokens() != null) {
            out.put("maxTokens", a.maxTokens());
        }
        return out;
    }

    private static AnswerPolicy answerPolicy(Map<String, Object> json) {
        Object template = json.get("promptTemplate");
        Object phrasings = json.get("multiQueryPhrasings");
        Object maxTokens = json.get("maxTokens");
        return new AnswerPolicy(template == null ? null : template.toString(), phrasings instanceof Number n ? n.intValue() : 0,
                Boolean.TRUE.equals(json.get("hyde")), maxTokens instanceof Number n ? n.intValue() : null);
    }

    static String fusionJson(FusionSpec f) {
        if (f.equals(FusionSpec.STANDARD)) {
            return null;
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("method", f.method());
        json.put("k", f.k());
        json.put("vectorWeight", f.vectorWeight());
        json.put("keywordWeight", f.keywordWeight());
        json.put("alpha", f.alpha());
        json.put("normalization", f.normalization());
        return JsonText.write(json);
    }

    static FusionSpec fusionOf(String json) {
        if (json == null) {
            return FusionSpec.STANDARD;
        }
        Map<String, Object> m = JsonText.objectMap(json);
        return new FusionSpec((String) m.get("method"), ((Number) m.get("k")).doubleValue(), ((Number) m.get("vectorWeight")).doubleValue(),
                ((Number) m.get("keywordWeight")).doubleValue(), ((Number) m.get("alpha")).doubleValue(), (String) m.get("normalization"));
    }

    static Tenant toTenant(TenantEntity row) {
        TenantDefinition definition = new TenantDefinition(row.id, row.displayName, TenantState.valueOf(row.state),
                new PluginChoice(row.storeProvider, JsonText.stringMap(row.storeConfig)),
                new PluginChoice(row.embedderProvider, JsonText.stringMap(row.embedderConfig)),
                row.rerankerProvider == null ? null : new PluginChoice(row.rerankerProvider, JsonText.stringMap(row.rerankerConfig)),
                new RetrievalDefaults(row.retrievalMode, row.retrievalTopK, row.retrievalMinScore, row.retrievalMaxChars, row.retrievalRerank,
                        fusionOf(row.retrievalFusion)),
                new Quotas(row.quotaMaxDocuments, row.quotaMaxChunks, row.quotaMaxBytes, row.quotaRequestsPerMinute, row.quotaIngestsPerMinute),
                new AccessPolicy(row.filterHookProvider == null ? null : new PluginChoice(row.filterHookProvider, JsonText.stringMap(row.filterHookConfig)),
                        JsonText.stringList(row.partitions)),
                row.ingestAllowedOrigins == null ? IngestPolicy.NONE
                        : new IngestPolicy(JsonText.stringList(row.ingestAllowedOrigins), JsonText.stringList(row.ingestPrivateOrigins)),
                row.generatorProvider == null ? null : new PluginChoice(row.generatorProvider, JsonText.stringMap(row.generatorConfig)),
                row.answerPolicy == null ? AnswerPolicy.DEFAULT : answerPolicy(JsonText.objectMap(row.answerPolicy)));
        return new Tenant(definition, row.activeEmbedder, Timestamps.instant(row.createdAt), Timestamps.instant(row.updatedAt), row.revision);
    }
}
