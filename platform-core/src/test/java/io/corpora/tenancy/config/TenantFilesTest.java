package io.corpora.tenancy.config;

import static io.corpora.tenancy.config.TenantDefinitionValidatorTest.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.TenantState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a tenants-config directory built by each test: good files load, each bad file is reported by name and field. */
class TenantFilesTest {

    private final TenantFiles files = new TenantFiles(TenantDefinitionValidator.packaged());

    @TempDir
    Path dir;

    private void write(String name, String text) throws Exception {
        Files.writeString(dir.resolve(name), text);
    }

    @Test
    void theRepositoryExamplesAreValid() {
        TenantFiles.Loaded loaded = files.read(Path.of("../tenants-config"));
        assertEquals(List.of(), loaded.problems());
        assertEquals(Set.of("demo", "acme"), loaded.tenants().keySet());
        assertEquals("lucene", loaded.tenants().get("demo").definition().store().provider());
        assertEquals("onnx", loaded.tenants().get("demo").definition().embedder().provider());
        var acme = loaded.tenants().get("acme").definition();
        assertEquals(List.of("legal", "engineering"), acme.access().partitions());
        assertEquals("audience", acme.access().filterHook().provider());
        assertEquals("public,role:{roles},user:{sub},group:{groups}", acme.access().filterHook().config().get("templates"));
    }

    @Test
    void thePackagedCopyOnTheClassPathIsTheSameDirectory() {
        Path packaged = TenantFiles.packagedDirectory(getClass().getClassLoader());
        assertTrue(Files.isRegularFile(packaged.resolve("demo.yaml")), packaged.toString());
        assertEquals(files.read(Path.of("../tenants-config")).tenants(), files.read(packaged).tenants());
    }

    @Test
    void yamlAndJsonFilesLoadAndTheSchemaAndHiddenFilesAreSkipped() throws Exception {
        write("alpha.yaml", "id: alpha\nstate: INACTIVE\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("beta.json", "{\"id\": \"beta\", \"store\": {\"provider\": \"pgvector\"}, \"embedder\": {\"provider\": \"onnx\"}}");
        write("tenant.schema.json", "{\"this is\": \"not a tenant\"}");
        write(".editor-backup.yaml", "garbage: [");
        write("notes.txt", "not a tenant file");
        TenantFiles.Loaded loaded = files.read(dir);
        assertEquals(List.of(), loaded.problems());
        assertEquals(Set.of("alpha", "beta"), loaded.tenants().keySet());
        assertTrue(loaded.tenants().get("alpha").declaresState());
        assertEquals(TenantState.INACTIVE, loaded.tenants().get("alpha").definition().state());
        assertFalse(loaded.tenants().get("beta").declaresState());
    }

    @Test
    void eachBadFileIsReportedWithItsNamePointerAndReasonAndTheOthersStillLoad() throws Exception {
        write("good.yaml", "id: good\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("broken.yaml", "id: broken\nstore: {provider: lucene\n");
        write("broken-json.json", "{\"id\": \"broken-json\",}");
        write("deep.json", "[".repeat(5_000) + "]".repeat(5_000)); // past Jackson's nesting limit: a failure without a location
        write("empty.yaml", "");
        write("renamed.yaml", "id: other\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("secret.yaml", "id: secret\nstore: {provider: pgvector, config: {password: hunter2}}\nembedder: {provider: onnx}\n");
        write("twice.yaml", "id: twice\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        write("twice.json", "{\"id\": \"twice\", \"store\": {\"provider\": \"lucene\"}, \"embedder\": {\"provider\": \"onnx\"}}");
        TenantFiles.Loaded loaded = files.read(dir);

        assertEquals(Set.of("good", "twice"), loaded.tenants().keySet());
        assertEquals("twice.json", loaded.tenants().get("twice").file(), "the first file (by name) wins; the second is reported");
        List<TenantFileProblem> problems = loaded.problems();
        assertFileProblem(problems, "broken.yaml", "", "not valid YAML (line");
        assertFileProblem(problems, "broken-json.json", "", "not valid JSON (line 1");
        assertFileProblem(problems, "deep.json", "", "not valid JSON: Document nesting depth");
        assertFileProblem(problems, "empty.yaml", "", "the file is empty");
        assertFileProblem(problems, "renamed.yaml", "/id", "must equal the file name without extension ('renamed')");
        assertFileProblem(problems, "secret.yaml", "/store/config/password", "MicroProfile Config reference");
        assertFileProblem(problems, "twice.yaml", "/id", "already declared in twice.json");
        assertEquals(Set.of("broken", "broken-json", "deep", "empty", "renamed", "secret", "twice"), Set.copyOf(loaded.invalidIds()));
    }

    @Test
    void aMissingDirectoryIsAnErrorNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> files.read(dir.resolve("nope")));
        assertTrue(e.getMessage().contains("nope") && e.getMessage().contains("does not exist"), e.getMessage());
    }

    private static void assertFileProblem(List<TenantFileProblem> problems, String file, String pointer, String reasonFragment) {
        assertProblem(problems.stream().filter(p -> p.file().equals(file)).toList(), pointer, reasonFragment);
    }
}
