package io.corpora.server.admin.model;

import io.corpora.controlplane.AuditEvent;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** GET /admin/v1/audit: audit events, newest first. */
@Schema(name = "AuditEvents")
public record AuditEvents(@Schema List<Event> events) {

    /**
     * One audited action; {@code tenant} and {@code target} are null for platform-wide actions, and {@code tenant} is
     * null too when a request named no well-formed tenant id (the value it named is then the target).
     */
    @Schema(name = "AuditEvent")
    @JsonbNillable
    @JsonbPropertyOrder({"at", "actor", "tenant", "action", "target", "outcome", "details"})
    public record Event(@Schema String at, @Schema String actor, @Schema String tenant, @Schema String action, @Schema String target, @Schema String outcome, @Schema Map<String, Object> details) {

        public static Event of(AuditEvent event) {
            return new Event(String.valueOf(event.at()), event.actor(), event.tenant(), event.action(), event.target(), event.outcome(),
                    event.details());
        }
    }
}
