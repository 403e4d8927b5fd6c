package io.corpora.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A token hammering admin routes it may not use: the audit keeps a bounded number of {@code admin.denied} rows per
 * subject and route (varying the path of one route does not escape the bound), and an {@code admin.denied.suppressed}
 * row per window counts every denial it did not record. The test server's window is short ({@code corpora.audit.deniedCalls.window}, set by the
 * build), so the summaries arrive within seconds.
 */
class DeniedAdminCallsAuditIT extends DeployedServer {

    private static final int DENIALS = 60;

    private final ServerClient http = ServerClient.fromBuild();
    private final String admin = http.token("auditor", null, Roles.PLATFORM_ADMIN);

    private record Rows(int recorded, long suppressed, int summaries) {}

    @Test
    void aFloodOfDeniedCallsWritesBoundedRowsAndSummariesThatCountEveryDenial() {
        String subject = "flood-" + UUID.randomUUID().toString().substring(0, 8);
        String token = http.token(subject, "acme", Roles.READER, Roles.TENANT_ADMIN);
        Instant since = Instant.now().minusSeconds(2);

        Instant started = Instant.now();
        for (int i = 0; i < DENIALS; i++) {
            assertEquals(403, http.get("admin/v1/tenants", token).status());
            assertEquals(403, http.send("DELETE", "admin/v1/tenants/victim-" + i, token, null).status()); // one route, many paths
        }
        Duration burst = Duration.between(started, Instant.now());
        Duration window = Duration.parse(System.getProperty("corpora.audit.deniedCalls.window", "PT3S"));
        // The burst spans at most this many windows of a key (each key's window starts at its first denial).
        long windows = burst.toMillis() / window.toMillis() + 2;
        long bound = windows * AuditDeniedAdminCalls.DEFAULT_RECORDED_PER_WINDOW;

        for (String method : List.of("GET", "DELETE")) {
            Rows rows = Poll.until("the summaries of " + subject + "'s " + method + " denials", window.multipliedBy(4).plusSeconds(30), () -> {
                Rows seen = rows(subject, method, since);
                return seen.recorded() + seen.suppressed() == DENIALS ? Optional.of(seen) : Optional.<Rows>empty();
            });
            assertTrue(rows.recorded() <= bound, method + ": " + rows + " recorded rows, more than " + bound + " for a burst of " + burst);
            assertTrue(rows.summaries() >= 1 && rows.summaries() <= windows, method + ": " + rows);
        }
    }

    /** The subject's rows of one method since {@code since}: admin.denied one by one, and the suppressed counts of summaries. */
    private Rows rows(String subject, String method, Instant since) {
        List<JsonNode> recorded = events("admin.denied", subject, method, since);
        recorded.forEach(event -> assertEquals("denied", event.get("outcome").asText(), event.toString()));
        List<JsonNode> summaries = events(AuditDeniedAdminCalls.SUPPRESSED_ACTION, subject, method, since);
        long suppressed = 0;
        for (JsonNode summary : summaries) {
            long count = summary.at("/details/suppressed").asLong();
            assertTrue(count > 0, summary.toString());
            assertTrue(summary.at("/details/reason").asText().startsWith(count + " more denials of this subject and route suppressed"),
                    summary.toString());
            assertEquals(method.equals("GET") ? "GET /admin/v1/tenants" : "DELETE /admin/v1/tenants/{id}", summary.get("target").asText(),
                    "a summary names the route, whatever the paths were");
            suppressed += count;
        }
        return new Rows(recorded.size(), suppressed, summaries.size());
    }

    private List<JsonNode> events(String action, String subject, String method, Instant since) {
        ServerClient.Response audit = http.get("admin/v1/audit?action=" + action + "&limit=1000&since=" + since, admin);
        assertEquals(200, audit.status(), audit.body());
        List<JsonNode> events = new ArrayList<>();
        for (JsonNode event : audit.json().get("events")) {
            if (event.get("actor").asText().equals(subject) && event.get("target").asText().startsWith(method + " ")) {
                events.add(event);
            }
        }
        return events;
    }
}
