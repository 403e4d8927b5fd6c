package io.corpora.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.TenantFixtures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Tokens signed by the trusted key whose Corpora claims have the wrong JSON shape, against the real server: each is
 * refused with 401 problem+json naming the claim, on data-plane and admin routes alike, and nothing of the tenant is
 * returned. A well-formed token of the same tenant reads the same data, so a refusal is never an empty tenant.
 */
class MalformedClaimsIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final String TENANT = TenantFixtures.uniqueId("claims");
    private static final String SECRET = "quetzalcoatl";

    @BeforeAll
    static void aTenantWithADocumentInEachPartition() {
        new TenantFixtures(CLIENT).create(TENANT, List.of("eng", "hr"), false);
        String writer = CLIENT.token("writer", TENANT, Roles.WRITER);
        for (String partition : List.of("eng", "hr", "_default")) {
            ServerClient.Response stored = CLIENT.post("api/v1/tenants/" + TENANT + "/documents", writer, Map.of("id", "memo-" + partition,
                    "partition", partition, "text", "The " + SECRET + " memo of " + partition + " lists the salaries."));
            assertEquals(201, stored.status(), stored.body());
        }
    }

    /** The claims of a reader of {@link #TENANT} bound to nothing, with {@code overrides} put over them. */
    private static Map<String, Object> reader(Map<String, Object> overrides) {
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("sub", "mallory");
        claims.put("upn", "mallory");
        claims.put("tenant", TENANT);
        claims.put("groups", List.of(Roles.READER));
        claims.putAll(overrides);
        return claims;
    }

    private static Map<String, Object> claim(String name, Object value) {
        Map<String, Object> claim = new LinkedHashMap<>();
        claim.put(name, value); // null is a value here: a present claim holding JSON null
        return claim;
    }

    /** A claim shape; {@code libertyRefuses}: Liberty's mpJwt rejects the token itself (401, empty body) before Corpora runs. */
    private record Case(String claim, Object value, boolean libertyRefuses) {
        Case(String claim, Object value) {
            this(claim, value, false);
        }
    }

    private static final List<Case> MALFORMED = List.of(
            new Case("partition", List.of("eng")), new Case("partition", 7), new Case("partition", ""), new Case("partition", "ENG"),
            new Case("partition", "hr/../eng"), new Case("partition", null), new Case("partition", Map.of("name", "hr")),
            new Case("partition", true),
            new Case("tenant", List.of(TENANT)), new Case("tenant", 7), new Case("tenant", ""), new Case("tenant", null),
            new Case("groups", Roles.READER), new Case("groups", 7), new Case("groups", List.of(7), true), new Case("groups", List.of("")),
            new Case("groups", List.of(Roles.READER, List.of("x")), true), new Case("groups", null), new Case("groups", Map.of("reader", true)),
            new Case("acl_groups", "legal"), new Case("acl_groups", 7), new Case("acl_groups", List.of(7)), new Case("acl_groups", List.of(" ")),
            new Case("acl_groups", null), new Case("acl_groups", Map.of("legal", true)));

    @Test
    void aWellFormedTokenReadsTheTenant() {
        ServerClient.Response all = retrieve(CLIENT.tokenWithClaims(reader(Map.of())), "hr");
        assertEquals(200, all.status(), all.body());
        assertTrue(all.body().contains(SECRET), all.body());
        ServerClient.Response bound = retrieve(CLIENT.tokenWithClaims(reader(Map.of("partition", "hr", "acl_groups", List.of()))), null);
        assertEquals(200, bound.status(), bound.body());
        assertTrue(bound.body().contains("memo of hr"), bound.body());
    }

    @Test
    void aMalformedClaimIsRefusedWith401OnDataPlaneRoutesAndNothingIsReturned() {
        List<String> wrong = new ArrayList<>();
        for (Case c : MALFORMED) {
            String token = CLIENT.tokenWithClaims(reader(claim(c.claim(), c.value())));
            for (ServerClient.Response response : List.of(retrieve(token, "hr"), retrieve(token, null),
                    CLIENT.get("api/v1/tenants/" + TENANT + "/documents?partition=hr", token),
                    CLIENT.get("api/v1/tenants/" + TENANT + "/documents/memo-hr/chunks?partition=hr", token))) {
                String shape = c.claim() + "=" + c.value();
                assertFalse(response.body().contains(SECRET) || response.body().contains("memo-"), shape + " leaked: " + response.body());
                boolean refused = response.status() == 401 && response.header("WWW-Authenticate") != null
                        && (c.libertyRefuses() || mentions(response, c.claim()));
                if (!refused) {
                    wrong.add(shape + " -> " + response.status() + " " + response.body());
                }
            }
        }
        assertTrue(wrong.isEmpty(), "expected 401 with a challenge (and problem+json naming the claim, where Corpora refuses):\n" + String.join("\n", wrong));
    }

    @Test
    void aMalformedClaimIsRefusedWith401OnAdminRoutesToo() {
        Map<String, Object> admin = new LinkedHashMap<>(Map.of("sub", "ops", "upn", "ops", "groups", List.of(Roles.PLATFORM_ADMIN)));
        assertEquals(200, CLIENT.get("admin/v1/tenants/" + TENANT, CLIENT.tokenWithClaims(admin)).status());
        List<Map<String, Object>> malformed = List.of(claim("groups", Roles.PLATFORM_ADMIN), claim("tenant", 7),
                claim("partition", List.of("eng")), claim("acl_groups", "ops"));
        for (Map<String, Object> overrides : malformed) {
            Map<String, Object> claims = new LinkedHashMap<>(admin);
            claims.putAll(overrides);
            ServerClient.Response response = CLIENT.get("admin/v1/tenants/" + TENANT, CLIENT.tokenWithClaims(claims));
            assertEquals(401, response.status(), overrides + ": " + response.body());
            assertTrue(response.isProblem(), response.contentType());
            assertFalse(response.body().contains("displayName"), response.body());
        }
    }

    @Test
    void theRefusalIsAnInvalidTokenChallengeNamingTheClaim() {
        ServerClient.Response response = retrieve(CLIENT.tokenWithClaims(reader(Map.of("partition", List.of("eng")))), null);
        assertEquals(401, response.status(), response.body());
        JsonNode problem = response.json();
        assertEquals("https://corpora.dev/problems/invalid-token-claims", problem.get("type").asText());
        assertEquals("partition", problem.get("claim").asText());
        assertTrue(problem.get("detail").asText().contains("string"), problem.toString());
        assertTrue(response.header("WWW-Authenticate").startsWith("Bearer error=\"invalid_token\""), response.headers().toString());
    }

    private static ServerClient.Response retrieve(String token, String partition) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", SECRET + " memo salaries");
        body.put("mode", "keyword");
        if (partition != null) {
            body.put("partition", partition);
        }
        return CLIENT.post("api/v1/tenants/" + TENANT + "/retrieve", token, body);
    }

    private static boolean mentions(ServerClient.Response response, String claim) {
        return response.isProblem() && claim.equals(response.json().path("claim").asText());
    }
}
