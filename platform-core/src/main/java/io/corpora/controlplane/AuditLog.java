package io.corpora.controlplane;

import java.time.Instant;
import java.util.List;

/** The append-only audit log (JPA-backed in the server): entries are never updated or deleted. */
public interface AuditLog {

    void append(AuditEvent event);

    /** Newest first; every parameter optional (null). */
    List<AuditEvent> query(String tenant, String action, Instant since, int limit);
}
