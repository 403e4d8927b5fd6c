package io.corpora.server.persistence;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.spi.Identifiers;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The append-only audit log on JPA: there is no update or delete path. Appends run in their own transaction
 * ({@code REQUIRES_NEW}), so a refused or failed action is recorded even when the caller's transaction rolls back.
 * An event's tenant is stored as its tenant only when it is a well-formed tenant id: a malformed one (a request's path
 * can carry anything) names no tenant and is kept, clipped, as the target.
 */
@ApplicationScoped
public class JpaAuditLog implements AuditLog {

    /** The widths of audit_log's columns that callers' input reaches (V1): a longer value is clipped, never a failed append. */
    static final int ACTOR_WIDTH = 256;
    static final int TARGET_WIDTH = 1024;

    /** The most entries one query returns. */
    public static final int MAX_LIMIT = 1000;

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    public JpaAuditLog() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaAuditLog(EntityManager em, Clock clock) {
        this.em = em;
        this.clock = clock;
    }

    @Override
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void append(AuditEvent event) {
        AuditEntryEntity row = new AuditEntryEntity();
        row.at = event.at() == null ? Timestamps.now(clock) : Timestamps.of(event.at());
        row.actor = clip(Objects.requireNonNull(event.actor(), "actor"), ACTOR_WIDTH);
        boolean namesTenant = event.tenant() == null || Identifiers.NAMESPACE_ID.matcher(event.tenant()).matches();
        row.tenantId = namesTenant ? event.tenant() : null;
        row.action = Objects.requireNonNull(event.action(), "action");
        row.target = clip(event.target() == null && !namesTenant ? event.tenant() : event.target(), TARGET_WIDTH);
        row.outcome = Objects.requireNonNull(event.outcome(), "outcome");
        row.details = JsonText.write(event.details());
        em.persist(row);
    }

    /** The value, or its first {@code width - 1} characters and an ellipsis (a surrogate pair is not split). */
    static String clip(String value, int width) {
        if (value == null || value.length() <= width) {
            return value;
        }
        int end = width - 1;
        if (Character.isHighSurrogate(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(0, end) + "…";
    }

    /** Newest first (ties in time by insertion order); {@code limit} is clamped to 1..{@value #MAX_LIMIT}. */
    @Override
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<AuditEvent> query(String tenant, String action, Instant since, int limit) {
        List<String> where = new ArrayList<>();
        if (tenant != null) {
            where.add("a.tenantId = :tenant");
        }
        if (action != null) {
            where.add("a.action = :action");
        }
        if (since != null) {
            where.add("a.at >= :since");
        }
        String jpql = "SELECT a FROM AuditEntryEntity a" + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
                + " ORDER BY a.at DESC, a.id DESC";
        var query = em.createQuery(jpql, AuditEntryEntity.class);
        if (tenant != null) {
            query.setParameter("tenant", tenant);
        }
        if (action != null) {
            query.setParameter("action", action);
        }
        if (since != null) {
            query.setParameter("since", Timestamps.of(since));
        }
        return query.setMaxResults(Math.min(MAX_LIMIT, Math.max(1, limit))).getResultList().stream()
                .map(a -> new AuditEvent(Timestamps.instant(a.at), a.actor, a.tenantId, a.action, a.target, a.outcome, JsonText.objectMap(a.details)))
                .toList();
    }
}
