package io.corpora.server.installedplugins;

import static io.corpora.testkit.TestFiles.copyTree;
import static io.corpora.testkit.TestFiles.deleteTree;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.testkit.server.KillableLibertyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The last steps of "Write a plugin in 15 minutes", on a real server: the reranker that {@code corpora plugin new}
 * generated and Maven built (platform-cli's PluginTemplateIT) is dropped, as its folder, into a plugins directory next
 * to the bundled plugins and a jar built against SPI 1.0; the server started on it lists both in
 * {@code GET /admin/v1/plugins} with their declared options.
 */
class GeneratedPluginIT {

    private static final Path GENERATED = Path.of("../platform-cli/target/plugin-template-it/acme-reranker/target/plugin/acme-reranker").toAbsolutePath().normalize();
    /** Built from the repository's history by scripts/build-spi-1.0-fixture.sh (see PluginCompatibilityTest). */
    private static final Path SPI_10_PLUGIN = Path.of("../platform-core/src/test/resources/plugins-spi-1.0/spi10-reranker.jar").toAbsolutePath().normalize();
    private static KillableLibertyServer server;
    private static ServerClient client;

    @BeforeAll
    static void startOnAPluginsDirectoryWithTheGeneratedPlugin() throws Exception {
        if (!Files.isDirectory(GENERATED)) {
            throw new IllegalStateException(GENERATED + " is missing: platform-cli's PluginTemplateIT builds it (mvn verify -pl platform-cli)");
        }
        Path target = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath().getParent();
        Path plugins = target.resolve("generated-plugin-it/plugins");
        deleteTree(plugins);
        copyTree(Path.of(System.getProperty("corpora.plugins.dir", "target/plugins")).toAbsolutePath(), plugins);
        copyTree(GENERATED, plugins.resolve("acme-reranker"));
        Files.copy(SPI_10_PLUGIN, plugins.resolve("spi10-reranker.jar"));
        int port = Integer.getInteger("corpora.crash.http.port", 19283);
        // The later -Dcorpora.plugins.dir wins over the default the server directory is created with.
        server = KillableLibertyServer.create("corpora-generated", port, target.resolve("generated-plugin-it/data"),
                target.resolve("generated-plugin-it/logs"), List.of(KillableLibertyServer.DEVELOPMENT_MODE, "-Dcorpora.plugins.dir=" + plugins));
        server.start();
        client = new ServerClient(server.baseUri(), ServerClient.devPrivateKey());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theGeneratedPluginAndASpi10PluginAreListedWithTheirOptions() {
        ServerClient.Response response = client.get("admin/v1/plugins", client.token("ops", null, Roles.PLATFORM_ADMIN));
        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        assertEquals(0, body.path("problems").size(), body.path("problems").toString());

        JsonNode generated = plugin(body, "acme-reranker");
        JsonNode provider = generated.get("providers").get(0);
        assertEquals("reranker", provider.get("kind").asText(), provider.toString());
        assertEquals("acme-reranker", provider.get("name").asText());
        JsonNode option = provider.get("options").get(0);
        assertEquals("minWordLength", option.get("name").asText(), option.toString());
        assertEquals("1", option.get("minimum").asText(), "declared bounds shown: " + option);
        assertEquals("20", option.get("maximum").asText(), "declared bounds shown: " + option);

        assertEquals("1.0", plugin(body, "spi10-reranker").get("spiVersion").asText());
    }

    private static JsonNode plugin(JsonNode body, String name) {
        for (JsonNode plugin : body.get("plugins")) {
            if (plugin.get("name").asText().equals(name)) {
                return plugin;
            }
        }
        throw new AssertionError("plugin " + name + " not listed: " + body);
    }
}
