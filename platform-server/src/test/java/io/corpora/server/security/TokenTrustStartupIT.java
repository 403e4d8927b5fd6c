package io.corpora.server.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.security.DevTokenMinter;
import io.corpora.security.TokenClaims;
import io.corpora.security.TokenTrust;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.testkit.server.KillableLibertyServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Real Liberty servers made from the one the build created, which is what an operator deploys: without a verification
 * key and issuer and without development mode, the application refuses to start and says which settings to configure;
 * with an explicit key and issuer it starts and trusts exactly those, not the development issuer. No Arquillian: its
 * server runs in development mode, as every other test needs.
 */
class TokenTrustStartupIT {

    private static final Path TARGET = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath().getParent();
    private static final String IDP_ISSUER = "https://idp.example.test/realms/corpora";
    private static final Pattern PEM_PRIVATE_KEY = Pattern.compile("-----BEGIN [A-Z ]*PRIVATE KEY-----\\s*[A-Za-z0-9+/=\\s]{64}");

    @Test
    void withoutAKeyOrDevelopmentModeTheApplicationRefusesToStart() throws Exception {
        try (KillableLibertyServer server = server("corpora-untrusted", List.of())) {
            assertFalse(server.startApplication(), "the application must fail to start; see " + server.messagesLog());
            List<KillableLibertyServer.LogMessage> log = server.logMessages();
            KillableLibertyServer.LogMessage refusal = log.stream().filter(m -> m.text().startsWith("Corpora refuses to start")).findFirst()
                    .orElseThrow(() -> new AssertionError("no refusal in " + server.messagesLog()));
            assertEquals("SEVERE", refusal.level(), refusal.toString());
            assertTrue(refusal.text().contains("no verification key is configured"), refusal.text());
            for (String setting : List.of("mp.jwt.verify.publickey.location", "mp.jwt.verify.issuer", "corpora.dev.mode", "CORPORA_DEV_MODE")) {
                assertTrue(refusal.text().contains(setting), "the refusal names " + setting + ": " + refusal.text());
            }
            assertTrue(log.stream().anyMatch(m -> m.text().startsWith("CWWKZ0012I")), "Liberty did not start the application");
            assertFalse(log.stream().anyMatch(m -> m.text().contains("DEVELOPMENT MODE")), log.toString());

            ServerClient client = new ServerClient(server.baseUri(), ServerClient.devPrivateKey());
            ServerClient.Response admin = client.get("admin/v1/tenants", client.token("dev-admin", null, Roles.PLATFORM_ADMIN));
            assertNotEquals(200, admin.status(), "a development token must not be served: " + admin.body());
            assertFalse(admin.body().contains("\"tenants\""), admin.body());
            ServerClient.Response ready = client.get("health/ready", null);
            assertEquals(503, ready.status(), "an application that did not start is never ready: " + ready.body());
        }
    }

    @Test
    void withAnExplicitKeyAndIssuerItStartsAndTrustsOnlyThose() throws Exception {
        Path publicKey = ServerClient.devPrivateKey().toAbsolutePath().resolveSibling("public.pem");
        try (KillableLibertyServer server = server("corpora-configured",
                List.of("-Dmp.jwt.verify.publickey.location=" + publicKey, "-Dmp.jwt.verify.issuer=" + IDP_ISSUER))) {
            server.start();
            ServerClient idp = new ServerClient(server.baseUri(), DevTokenMinter.fromPem(ServerClient.devPrivateKey(), IDP_ISSUER));
            ServerClient.Response admin = idp.get("admin/v1/tenants", idp.token("ops", null, Roles.PLATFORM_ADMIN));
            assertEquals(200, admin.status(), admin.body());

            ServerClient dev = new ServerClient(server.baseUri(), DevTokenMinter.fromPem(ServerClient.devPrivateKey(), TokenClaims.DEV_ISSUER));
            ServerClient.Response devAdmin = dev.get("admin/v1/tenants", dev.token("dev-admin", null, Roles.PLATFORM_ADMIN));
            assertEquals(401, devAdmin.status(), "the development issuer is not trusted outside development mode: " + devAdmin.body());

            JsonNode check = tokenVerificationCheck(idp.get("health/ready", null).json());
            assertEquals("UP", check.get("status").asText(), check.toString());
            assertFalse(check.at("/data/developmentMode").asBoolean(true), check.toString());
            assertEquals(IDP_ISSUER, check.at("/data/issuer").asText());
            List<KillableLibertyServer.LogMessage> log = server.logMessages();
            assertTrue(log.stream().anyMatch(m -> m.text().equals("Tokens are verified with mp.jwt.verify.publickey.location=" + publicKey
                    + ", issuer " + IDP_ISSUER)), log.toString());
            assertFalse(log.stream().anyMatch(m -> m.text().contains("DEVELOPMENT MODE")), log.toString());
        }
    }

    @Test
    void neitherTheCreatedServerNorTheWarHoldsAPrivateKey() throws IOException {
        Path created = Path.of(System.getProperty("corpora.liberty.wlp", "target/liberty/wlp"), "usr", "servers",
                System.getProperty("corpora.liberty.server.name", "corpora"));
        assertTrue(Files.isRegularFile(created.resolve("server.xml")), created + " is the server the build created");
        List<Path> keys = configurationFilesHoldingAPrivateKey(created);
        assertEquals(List.of(), keys, "the server's configuration directory holds a private key");
        Path war = Path.of(System.getProperty("corpora.war", "target/corpora.war"));
        List<String> inWar = new ArrayList<>();
        try (ZipFile zip = new ZipFile(war.toFile())) {
            for (ZipEntry entry : Collections.list(zip.entries())) {
                try (InputStream in = zip.getInputStream(entry)) {
                    if (!entry.isDirectory() && !entry.getName().endsWith(".jar") && holdsPrivateKey(in.readAllBytes())) {
                        inWar.add(entry.getName());
                    }
                }
            }
            assertTrue(zip.getEntry("WEB-INF/classes/" + TokenTrust.DEV_PUBLIC_KEY_RESOURCE) != null, "the WAR carries the public key");
        }
        assertEquals(List.of(), inWar, "the WAR holds a private key");
    }

    /**
     * The server's own files, without descending into what the running servers of the other tests write meanwhile
     * (logs, workarea, deployed apps): a walk that entered them could meet a file Liberty deletes under it.
     */
    private static List<Path> configurationFilesHoldingAPrivateKey(Path serverDirectory) throws IOException {
        Set<Path> runtimeDirectories = Stream.of("logs", "workarea", "dropins", "apps", "jdbc").map(serverDirectory::resolve)
                .collect(Collectors.toSet());
        List<Path> keys = new ArrayList<>();
        Files.walkFileTree(serverDirectory, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
                return runtimeDirectories.contains(directory) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
                if (attributes.isRegularFile() && holdsPrivateKey(Files.readAllBytes(file))) {
                    keys.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return keys;
    }

    /** A PEM private key block (a header followed by key material), not merely the words, which code may hold. */
    private static boolean holdsPrivateKey(byte[] content) {
        return PEM_PRIVATE_KEY.matcher(new String(content, StandardCharsets.ISO_8859_1)).find();
    }

    private static KillableLibertyServer server(String name, List<String> jvmOptions) throws IOException {
        return KillableLibertyServer.create(name, freePort(), TARGET.resolve(name + "-data"), TARGET.resolve(name + "-logs"), jvmOptions);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** The {@code token-verification} check of a {@code /health} answer. */
    static JsonNode tokenVerificationCheck(JsonNode health) {
        for (JsonNode check : health.get("checks")) {
            if (check.get("name").asText().equals("token-verification")) {
                return check;
            }
        }
        throw new AssertionError("no token-verification check in " + health);
    }
}
