package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.tenancy.config.InvalidTenantDefinitionException;
import io.corpora.tenancy.config.TenantDefinitionValidator;
import io.corpora.tenancy.config.TenantFiles;
import io.corpora.tenancy.config.TenantFileProblem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The admin-time check of a definition's plugin choices, against the real plugins the build packaged. */
class PluginChoiceCheckTest {

    @RegisterExtension
    static final RealPluginRuntimes real = new RealPluginRuntimes();

    private final Map<String, String> serverConfig = Map.of("corpora.test.m", "sixteen", "corpora.test.model", "/models/m.onnx");
    private final PluginChoiceCheck check = new PluginChoiceCheck(real.plugins(), key -> Optional.ofNullable(serverConfig.get(key)));

    @Test
    void aDefinitionThisServerCanCreateHasNoProblems() {
        TenantDefinition fine = definition(new PluginChoice("lucene", Map.of("hnsw.m", "16")), new PluginChoice("onnx", Map.of()),
                new PluginChoice("audience", Map.of("key", "audience")));
        assertEquals(List.of(), check.problems("request", fine));
        check.require("request", fine);
    }

    @Test
    void eachChoiceItCannotCreateIsAProblemAtItsField() {
        TenantDefinition bad = definition(new PluginChoice("no-such-store", Map.of()), new PluginChoice("onnx", Map.of("bogus", "1")),
                new PluginChoice("audience", Map.of("key", "${config:corpora.test.unset}")));
        List<TenantFileProblem> problems = check.problems("request", bad);
        assertEquals(List.of("/store/provider", "/embedder/config", "/access/filterHook/config"), problems.stream().map(TenantFileProblem::pointer).toList());
        assertTrue(problems.get(0).reason().contains("no vector-store plugin named 'no-such-store'") && problems.get(0).reason().contains("lucene"),
                problems.get(0).reason());
        assertFalse(problems.get(0).reason().contains(real.plugins().directory().toString()), "no server path: " + problems.get(0).reason());
        assertTrue(problems.get(1).reason().startsWith("unknown option 'bogus'"), problems.get(1).reason());
        assertTrue(problems.get(2).reason().contains("corpora.test.unset"), problems.get(2).reason());
        InvalidTenantDefinitionException thrown = assertThrows(InvalidTenantDefinitionException.class, () -> check.require("request", bad));
        assertEquals(problems, thrown.problems());
        assertEquals(List.of(problems.get(1)), check.problemsUnder("request", bad, "embedder"), "a request changing the embedder alone");
        assertEquals(List.of(problems.get(2)), check.problemsUnder("request", bad, "access"));
        assertEquals(List.of(), check.problemsUnder("request", definition(new PluginChoice("lucene", Map.of()), new PluginChoice("onnx",
                Map.of("bogus", "1")), null), "store"), "the tenant's other choices are not the request's");
    }

    /**
     * What a provider's own validate refuses — here a generator base URL that is not http, an audience template with an
     * unknown placeholder — is a problem at its field, found without creating the plugin.
     */
    @Test
    void whatTheProviderItselfRefusesIsAProblemAtItsField() {
        TenantDefinition refused = new TenantDefinition("acme", null, null, new PluginChoice("lucene", Map.of()), new PluginChoice("onnx", Map.of()),
                null, null, null, new AccessPolicy(new PluginChoice("audience", Map.of("templates", "team:{team}")), List.of()), null,
                new PluginChoice("openai", Map.of("baseUrl", "ftp://models.example.org", "model", "m")), null);
        List<TenantFileProblem> problems = check.problems("request", refused);
        assertEquals(List.of("/generator/config", "/access/filterHook/config"), problems.stream().map(TenantFileProblem::pointer).toList());
        assertTrue(problems.get(0).reason().contains("must be an http or https URL"), problems.get(0).reason());
        assertTrue(problems.get(1).reason().contains("unknown placeholder {team}"), problems.get(1).reason());
    }

    @Test
    void aReferencedValueTheProviderRefusesIsReportedWithoutRepeatingIt() {
        TenantDefinition referenced = definition(new PluginChoice("lucene", Map.of("hnsw.m", "${config:corpora.test.m}")),
                new PluginChoice("onnx", Map.of()), null);
        List<TenantFileProblem> problems = check.problems("request", referenced);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("/store/config", problems.get(0).pointer());
        assertTrue(problems.get(0).reason().contains("${config:corpora.test.m}"), problems.get(0).reason());
        assertFalse(problems.get(0).reason().contains("sixteen"), "the value may be a secret: " + problems.get(0).reason());
    }

    /** Tenants-config files pass the same check: the packaged examples load; a file naming a store this server lacks does not. */
    @Test
    void aTenantsConfigFileWhosePluginsThisServerLacksIsReportedAndNotLoaded(@TempDir Path dir) throws Exception {
        TenantFiles files = new TenantFiles(TenantDefinitionValidator.packaged(), check);
        TenantFiles.Loaded examples = files.read(Path.of("../tenants-config"));
        assertEquals(List.of(), examples.problems());
        assertEquals(Set.of("demo", "acme"), examples.tenants().keySet());

        Files.writeString(dir.resolve("good.yaml"), "id: good\nstore: {provider: lucene}\nembedder: {provider: onnx}\n");
        Files.writeString(dir.resolve("lacking.yaml"), "id: lacking\nstore: {provider: milvus}\nembedder: {provider: onnx}\n");
        TenantFiles.Loaded loaded = files.read(dir);
        assertEquals(Set.of("good"), loaded.tenants().keySet());
        assertEquals(List.of("lacking"), loaded.invalidIds(), "reported, so sync does not list it as only in the database");
        assertEquals(List.of(new TenantFileProblem("lacking.yaml", "/store/provider", loaded.problems().get(0).reason())), loaded.problems());
        assertTrue(loaded.problems().get(0).reason().contains("'milvus'"), loaded.problems().toString());
    }

    private static TenantDefinition definition(PluginChoice store, PluginChoice embedder, PluginChoice filterHook) {
        return new TenantDefinition("acme", null, null, store, embedder, null, null, null, new AccessPolicy(filterHook, List.of()), null);
    }
}
