package io.corpora.client.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.client.CorporaClient;
import io.corpora.client.RetryPolicy;
import io.corpora.security.DevTokenMinter;
import io.corpora.security.TokenClaims;
import io.corpora.testkit.server.KillableLibertyServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A real Corpora server for the Java clients' integration tests: the Liberty server and WAR platform-server's build made,
 * started once per test JVM on the module's own port (corpora.client.it.port) in development mode, so this fixture can
 * mint tokens with the development key. Tenants are created through the admin API, with ids unique to the run.
 */
public final class RunningCorpora implements AutoCloseable {

    private static RunningCorpora shared;
    /** A start that failed fails every later test class at once (a second start would race the first for the port). */
    private static IllegalStateException failedStart;

    private final KillableLibertyServer server;
    private final DevTokenMinter tokens;
    private final HttpClient http = HttpClient.newHttpClient();

    private RunningCorpora(KillableLibertyServer server, DevTokenMinter tokens) {
        this.server = server;
        this.tokens = tokens;
    }

    /** The server of this test JVM, started on first use (one start per module: start-up dominates the tests' time). */
    public static synchronized RunningCorpora get() throws IOException, InterruptedException {
        if (failedStart != null) {
            throw failedStart;
        }
        if (shared == null) {
            int port = Integer.getInteger("corpora.client.it.port", 19433);
            Path dir = Path.of(System.getProperty("corpora.client.it.dir", "target/corpora-it"));
            // Named after the build's server (liberty.server.name), so builds with servers of their own never share one.
            String name = System.getProperty("corpora.liberty.server.name", "corpora") + "-client-it-" + port;
            // OpenAPI scanning stays on (the launcher turns it off for speed): the contract test reads GET /openapi.
            KillableLibertyServer server = KillableLibertyServer.create(name, port, dir.resolve("data"), dir.resolve("logs"),
                    List.of(KillableLibertyServer.DEVELOPMENT_MODE, "-Dmp.openapi.scan.disable=false"));
            try {
                server.start();
            } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
                server.close();
                failedStart = new IllegalStateException("Corpora did not start for the client tests: " + e.getMessage(), e);
                throw failedStart;
            }
            shared = new RunningCorpora(server, DevTokenMinter.fromPem(Path.of(System.getProperty("corpora.dev.jwt.private.key",
                    "../../platform-server/dev-jwt/private.pem"))));
            Runtime.getRuntime().addShutdownHook(new Thread(server::close, "stop " + name));
        }
        return shared;
    }

    public URI baseUri() {
        return server.baseUri();
    }

    /** A token for {@code subject} in {@code tenant} with {@code roles} (reader, writer, tenant-admin), valid 10 minutes. */
    public String token(String subject, String tenant, String... roles) {
        return tokens.mint(subject, tenant, List.of(roles), Duration.ofMinutes(10), Map.of());
    }

    /** A client of {@code tenant} with a token carrying {@code roles}; no retries unless asked. */
    public CorporaClient client(String tenant, String... roles) {
        return CorporaClient.builder(baseUri(), tenant).token(token("client-it", tenant, roles)).retries(RetryPolicy.NONE).build();
    }

    /** As {@link #client(String, String...)}, for {@code subject} in the ACL groups {@code aclGroups} (the audience hook reads them). */
    public CorporaClient client(String tenant, String subject, List<String> aclGroups, String... roles) {
        String token = tokens.mint(subject, tenant, List.of(roles), Duration.ofMinutes(10), Map.of(TokenClaims.ACL_GROUPS, aclGroups));
        return CorporaClient.builder(baseUri(), tenant).token(token).retries(RetryPolicy.NONE).build();
    }

    /** Creates a tenant on the embedded defaults (Lucene, ONNX, hybrid), with {@code extra} top-level settings; returns its id. */
    public String createTenant(String prefix, Map<String, Object> extra) throws IOException, InterruptedException {
        String id = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("displayName", "Client IT " + id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", Map.of("provider", "onnx"));
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 10));
        definition.putAll(extra);
        HttpRequest request = asPlatformAdmin("admin/v1/tenants")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(new ObjectMapper().writeValueAsString(definition))).build();
        HttpResponse<String> created = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (created.statusCode() != 201 && created.statusCode() != 200) {
            throw new IllegalStateException("creating tenant " + id + ": " + created.statusCode() + " " + created.body());
        }
        return id;
    }

    /** Sets a tenant's lifecycle state (ACTIVE, INACTIVE) through the admin API. */
    public void setState(String tenant, String state) throws IOException, InterruptedException {
        HttpRequest request = asPlatformAdmin("admin/v1/tenants/" + tenant + "/state")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"state\": \"" + state + "\"}")).build();
        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("state of " + tenant + ": " + answer.statusCode() + " " + answer.body());
        }
    }

    /** The tenant as the admin API reads it ({@code GET admin/v1/tenants/{id}}): its definition and state. */
    public JsonNode tenant(String tenant) throws IOException, InterruptedException {
        HttpResponse<String> answer = http.send(asPlatformAdmin("admin/v1/tenants/" + tenant).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IllegalStateException("GET tenant " + tenant + ": " + answer.statusCode() + " " + answer.body());
        }
        return new ObjectMapper().readTree(answer.body());
    }

    private HttpRequest.Builder asPlatformAdmin(String path) {
        return HttpRequest.newBuilder(baseUri().resolve(path))
                .header("Authorization", "Bearer " + tokens.mint("ops", null, List.of("platform-admin"), Duration.ofMinutes(5), Map.of()));
    }

    /** GET of a path relative to the server root, without a token (e.g. {@code openapi?format=JSON}). */
    public String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(baseUri().resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("GET " + path + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    @Override
    public void close() {
        server.close();
    }
}
