package io.corpora.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.security.TokenClaims;
import io.corpora.server.DeployedServer;
import io.corpora.server.ServerClient;
import io.corpora.server.api.MessagesLog;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The test server runs in development mode, switched on explicitly, and says so at boot and on {@code /health}. */
class DevelopmentModeIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @Test
    void developmentModeIsReportedOnHealthAndReadinessWhichStaysUp() {
        for (String path : List.of("health", "health/ready")) {
            ServerClient.Response health = client.get(path, null);
            assertEquals(200, health.status(), path + ": " + health.body());
            JsonNode check = TokenTrustStartupIT.tokenVerificationCheck(health.json());
            assertEquals("UP", check.get("status").asText());
            assertTrue(check.at("/data/developmentMode").asBoolean(false), check.toString());
            assertEquals(TokenClaims.DEV_ISSUER, check.at("/data/issuer").asText());
        }
    }

    @Test
    void developmentModeIsAnnouncedWithWarningsAtBoot() throws Exception {
        List<JsonNode> banner = MessagesLog.jsonRecords().filter(r -> r.path("message").asText().contains("CORPORA DEVELOPMENT MODE")).toList();
        // Each deployment of the WAR announces it again (the log is the server's, it outlives deployments).
        banner.forEach(line -> assertEquals("WARNING", line.path("loglevel").asText(), line.toString()));
        assertTrue(banner.stream().anyMatch(line -> line.path("message").asText().contains("anyone with the repository can mint any token")),
                banner.toString());
        assertTrue(banner.stream().anyMatch(line -> line.path("message").asText().contains("Never run a production server in development mode")),
                banner.toString());
    }
}
