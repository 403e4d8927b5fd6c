package io.corpora.controlplane;

import java.time.Instant;
import java.util.Map;

/**
 * One append-only audit entry: who did what to which target, when, and how it ended.
 *
 * @param actor   the token subject (or {@code system} for boot-time sync)
 * @param tenant  the tenant concerned, or null for platform-level actions
 * @param action  e.g. {@code tenant.create}, {@code document.delete}, {@code retrieve.refused}
 * @param outcome {@code success}, {@code denied} or {@code failure}
 */
public record AuditEvent(Instant at, String actor, String tenant, String action, String target, String outcome, Map<String, Object> details) {
    public AuditEvent {
        details = details == null ? Map.of() : Map.copyOf(details);
    }
}
