package io.corpora.server.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One page of the fleet: tenants with their corpus sizes (their {@link TenantUsage} rows, never an aggregate over the
 * documents) and quota limits, sorted and paginated by the database (LIMIT/OFFSET), so a page costs one row per tenant
 * at most, whatever the tenants hold. Portable SQL for PostgreSQL 15 and H2 2.3.
 */
@ApplicationScoped
@Transactional
public class JpaFleetQuery {

    /** One tenant's row: sizes count active document versions only. */
    public record Row(String id, String displayName, String state, long documents, long chunks, long bytes,
                      long maxDocuments, long maxChunks, long maxBytes) {}

    /** Sort keys and the SQL each orders by; ties by id, so pages are stable. */
    public static final Map<String, String> SORTS = Map.of(
            "id", "t.id",
            "state", "t.state",
            "created", "t.created_at",
            "documents", "documents",
            "chunks", "chunks",
            "bytes", "bytes",
            "quota", "quota_use");

    private static final String FROM = " FROM tenants t" + TenantUsage.JOIN;

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    /**
     * @param state    null: every state
     * @param idPrefix null: every id; else only ids starting with it
     * @param sort     a key of {@link #SORTS}
     */
    public List<Row> page(String sort, boolean descending, String state, String idPrefix, int offset, int limit) {
        String orderBy = SORTS.get(sort);
        if (orderBy == null) {
            throw new IllegalArgumentException("sort must be one of " + SORTS.keySet().stream().sorted().toList() + ", got '" + sort + "'");
        }
        String sql = "SELECT t.id, t.display_name, t.state, COALESCE(u.documents, 0) AS documents, COALESCE(u.chunks, 0) AS chunks,"
                + " COALESCE(u.bytes, 0) AS bytes, t.quota_max_documents, t.quota_max_chunks, t.quota_max_bytes,"
                + " GREATEST(COALESCE(COALESCE(u.documents, 0) * 1.0 / NULLIF(t.quota_max_documents, 0), 0),"
                + " COALESCE(COALESCE(u.chunks, 0) * 1.0 / NULLIF(t.quota_max_chunks, 0), 0),"
                + " COALESCE(COALESCE(u.bytes, 0) * 1.0 / NULLIF(t.quota_max_bytes, 0), 0)) AS quota_use"
                + FROM;
        List<Object> parameters = new ArrayList<>();
        sql += where(state, idPrefix, parameters) + " ORDER BY " + orderBy + (descending ? " DESC" : " ASC") + ", t.id ASC"
                + " LIMIT ?" + (parameters.size() + 1) + " OFFSET ?" + (parameters.size() + 2);
        parameters.add(limit);
        parameters.add(offset);
        var query = bind(em.createNativeQuery(sql), parameters);
        @SuppressWarnings("unchecked")
        List<Object[]> rows = query.getResultList();
        return rows.stream().map(r -> new Row((String) r[0], (String) r[1], (String) r[2], number(r[3]), number(r[4]), number(r[5]),
                number(r[6]), number(r[7]), number(r[8]))).toList();
    }

    public long count(String state, String idPrefix) {
        List<Object> parameters = new ArrayList<>();
        String sql = "SELECT COUNT(*) FROM tenants t" + where(state, idPrefix, parameters);
        return number(bind(em.createNativeQuery(sql), parameters).getSingleResult());
    }

    /** The WHERE clause with positional parameters numbered in order of appearance, their values appended to {@code parameters}. */
    private static String where(String state, String idPrefix, List<Object> parameters) {
        List<String> clauses = new ArrayList<>();
        if (state != null) {
            parameters.add(state.toUpperCase(Locale.ROOT));
            clauses.add("t.state = ?" + parameters.size());
        }
        if (idPrefix != null) {
            parameters.add(idPrefix.replace("!", "!!").replace("%", "!%").replace("_", "!_") + "%");
            clauses.add("t.id LIKE ?" + parameters.size() + " ESCAPE '!'");
        }
        return clauses.isEmpty() ? "" : " WHERE " + String.join(" AND ", clauses);
    }

    private static jakarta.persistence.Query bind(jakarta.persistence.Query query, List<Object> parameters) {
        for (int i = 0; i < parameters.size(); i++) {
            query.setParameter(i + 1, parameters.get(i));
        }
        return query;
    }

    private static long number(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }
}
