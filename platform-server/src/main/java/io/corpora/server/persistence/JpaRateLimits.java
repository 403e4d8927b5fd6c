package io.corpora.server.persistence;

import io.corpora.tenancy.RateLimits;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.util.List;

/**
 * Token buckets in the control-plane table {@code rate_limit_buckets}, shared by every server: a take is one
 * conditional {@code UPDATE} (refill and take under the row's lock, in the statement), so concurrent servers never
 * hand out the same token. A first take creates the row ({@code ON CONFLICT DO NOTHING} settles a race) and retries.
 * One round trip per allowed request (measured in the README's scale-out section against Redis).
 */
@ApplicationScoped
@Transactional(Transactional.TxType.REQUIRES_NEW)
public class JpaRateLimits implements RateLimits {

    /** Refilled tokens at ?now: min(capacity, tokens + elapsed * rate); elapsed never negative (clock skew). */
    private static final String REFILLED = "LEAST(CAST(? AS DOUBLE PRECISION), tokens + GREATEST(0, ? - updated_ms) * CAST(? AS DOUBLE PRECISION))";

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    public JpaRateLimits() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaRateLimits(EntityManager em, Clock clock) {
        this.em = em;
        this.clock = clock;
    }

    @Override
    public Decision acquire(String key, int perMinute) {
        if (perMinute <= 0) {
            return Decision.allow();
        }
        long now = clock.millis();
        double perMilli = perMinute / 60_000.0;
        for (int attempt = 0; attempt < 2; attempt++) {
            int taken = em.createNativeQuery("UPDATE rate_limit_buckets SET tokens = " + REFILLED + " - 1, updated_ms = GREATEST(updated_ms, ?)"
                            + " WHERE bucket_key = ? AND " + REFILLED + " >= 1")
                    .setParameter(1, perMinute).setParameter(2, now).setParameter(3, perMilli).setParameter(4, now).setParameter(5, key)
                    .setParameter(6, perMinute).setParameter(7, now).setParameter(8, perMilli).executeUpdate();
            if (taken == 1) {
                return Decision.allow();
            }
            @SuppressWarnings("unchecked")
            List<Object> tokens = em.createNativeQuery("SELECT " + REFILLED + " FROM rate_limit_buckets WHERE bucket_key = ?")
                    .setParameter(1, perMinute).setParameter(2, now).setParameter(3, perMilli).setParameter(4, key).getResultList();
            if (!tokens.isEmpty()) {
                return Decision.refused(((Number) tokens.get(0)).doubleValue(), perMinute);
            }
            // A new bucket starts full: this take leaves capacity - 1. Another server may create it first; then retry.
            int created = em.createNativeQuery("INSERT INTO rate_limit_buckets (bucket_key, tokens, updated_ms) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                    .setParameter(1, key).setParameter(2, perMinute - 1.0).setParameter(3, now).executeUpdate();
            if (created == 1) {
                return Decision.allow();
            }
        }
        return Decision.refused(0, perMinute);
    }
}
