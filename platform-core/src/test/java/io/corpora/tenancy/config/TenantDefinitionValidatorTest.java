package io.corpora.tenancy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The packaged schema plus the secret rule, on documents written inline: what passes, and what each failure says. */
class TenantDefinitionValidatorTest {

    private static final YAMLMapper YAML = new YAMLMapper();
    private final TenantDefinitionValidator validator = TenantDefinitionValidator.packaged();

    @Test
    void aMinimalTenantIsValidAndTakesTheDefaults() throws Exception {
        TenantDefinition tenant = validator.parse("t1.yaml", yaml("""
                id: t1
                store: {provider: lucene}
                embedder: {provider: onnx}
                """));
        assertEquals("t1", tenant.displayName());
        assertEquals(TenantState.ACTIVE, tenant.state());
        assertEquals("hybrid", tenant.retrieval().mode());
        assertEquals(0, tenant.quotas().maxDocuments());
        assertEquals(List.of(), tenant.access().partitions());
        assertEquals(null, tenant.access().filterHook());
    }

    @Test
    void listOptionsBecomeTheSpiCommaSeparatedFormAndRoundTripThroughJson() throws Exception {
        JsonNode document = yaml("""
                id: acme
                store: {provider: lucene}
                embedder: {provider: onnx, config: {batchSize: 16, normalize: true}}
                access:
                  partitions: [legal]
                  filterHook:
                    provider: audience
                    config: {key: audience, templates: ["public", "role:{roles}", "user:{sub}"]}
                """);
        TenantDefinition tenant = validator.parse("acme.yaml", document);
        assertEquals("public,role:{roles},user:{sub}", tenant.access().filterHook().config().get("templates"));
        assertEquals(Map.of("batchSize", "16", "normalize", "true"), tenant.embedder().config());

        JsonNode written = TenantDefinitionCodec.toJson(tenant);
        assertEquals(List.of(), validator.validate("acme.json", written));
        assertEquals(tenant, TenantDefinitionCodec.fromJson(written));
    }

    @Test
    void aFusionRoundTripsAndBadValuesNameTheirField() throws Exception {
        TenantDefinition tenant = validator.parse("f.yaml", yaml("""
                id: f
                store: {provider: lucene}
                embedder: {provider: onnx}
                retrieval: {mode: hybrid, fusion: {method: convex, alpha: 0.7, normalization: zscore}}
                """));
        assertEquals(io.corpora.engine.retriever.FusionSpec.convex("zscore", 0.7), tenant.retrieval().fusion());
        JsonNode written = TenantDefinitionCodec.toJson(tenant);
        assertEquals(List.of(), validator.validate("f.json", written));
        assertEquals(tenant, TenantDefinitionCodec.fromJson(written));
        assertEquals(io.corpora.engine.retriever.FusionSpec.STANDARD,
                validator.parse("d.yaml", yaml("id: d\nstore: {provider: lucene}\nembedder: {provider: onnx}\n")).retrieval().fusion());

        List<TenantFileProblem> problems = validator.validate("bad.yaml", yaml("""
                id: bad
                store: {provider: lucene}
                embedder: {provider: onnx}
                retrieval: {fusion: {method: borda, alpha: 1.5, k: 0, weights: {vector: -1}, normalization: l2}}
                """));
        assertProblem(problems, "/retrieval/fusion/method", "enum");
        assertProblem(problems, "/retrieval/fusion/alpha", "maximum");
        assertProblem(problems, "/retrieval/fusion/k", "minimum");
        assertProblem(problems, "/retrieval/fusion/weights/vector", "minimum");
        assertProblem(problems, "/retrieval/fusion/normalization", "enum");
        InvalidTenantDefinitionException bothZero = assertThrows(InvalidTenantDefinitionException.class, () -> validator.parse("z.yaml",
                yaml("id: z\nstore: {provider: lucene}\nembedder: {provider: onnx}\nretrieval: {fusion: {weights: {vector: 0, keyword: 0}}}\n")));
        assertTrue(bothZero.getMessage().contains("fusion.weights"), bothZero.getMessage());
    }

    @Test
    void missingAndUnknownFieldsNameTheirPointer() throws Exception {
        List<TenantFileProblem> problems = validator.validate("bad.yaml", yaml("""
                id: bad
                store: {provider: lucene, colour: blue}
                retrieval: {topK: 0, mode: fuzzy}
                """));
        assertProblem(problems, "/embedder", "missing required field 'embedder'");
        assertProblem(problems, "/store/colour", "unknown field 'colour'");
        assertProblem(problems, "/retrieval/topK", "minimum");
        assertProblem(problems, "/retrieval/mode", "enum");
        problems.forEach(p -> assertEquals("bad.yaml", p.file()));
        problems.forEach(p -> assertTrue(!p.reason().startsWith("/") && !p.reason().startsWith(":"), "the reason repeats no location: " + p));
    }

    @Test
    void anInvalidTenantIdIsRefusedByThePattern() throws Exception {
        List<TenantFileProblem> problems = validator.validate("x.yaml", yaml("""
                id: "Acme Corp"
                store: {provider: lucene}
                embedder: {provider: onnx}
                """));
        assertProblem(problems, "/id", "pattern");
    }

    @Test
    void literalSecretsAreRefusedAndReferencesAccepted() throws Exception {
        List<TenantFileProblem> problems = validator.validate("acme.yaml", yaml("""
                id: acme
                store: {provider: pgvector, config: {url: "jdbc:postgresql://db/corpora", password: hunter2}}
                embedder: {provider: remote, config: {apiKey: "sk-123", api_token: "${config:acme.token}"}}
                reranker: {provider: http, config: {clientSecret: "${config:acme.reranker.secret}", url: "${config:broken"}}
                """));
        assertProblem(problems, "/store/config/password", "MicroProfile Config reference");
        assertProblem(problems, "/embedder/config/apiKey", "MicroProfile Config reference");
        assertProblem(problems, "/reranker/config/url", "malformed configuration reference");
        assertEquals(3, problems.size(), problems.toString());
    }

    @Test
    void listItemsWithCommasAreRefusedBecauseTheyCouldNotRoundTrip() throws Exception {
        List<TenantFileProblem> problems = validator.validate("t.yaml", yaml("""
                id: t
                store: {provider: lucene}
                embedder: {provider: onnx}
                access: {filterHook: {provider: audience, config: {templates: ["a,b"]}}}
                """));
        assertTrue(problems.stream().anyMatch(p -> p.pointer().startsWith("/access/filterHook/config/templates")), problems.toString());
    }

    @Test
    void ingestOriginsRoundTripAndMalformedOnesNameTheirEntry() throws Exception {
        TenantDefinition tenant = validator.parse("docs.yaml", yaml("""
                id: docs
                store: {provider: lucene}
                embedder: {provider: onnx}
                ingest:
                  allowedOrigins: ["https://docs.example.com", "https://cdn.example.com:8443"]
                  privateOrigins: ["https://wiki.intranet"]
                """));
        assertEquals(List.of("https://docs.example.com", "https://cdn.example.com:8443"), tenant.ingest().allowedOrigins());
        assertEquals(List.of("https://wiki.intranet"), tenant.ingest().privateOrigins());
        JsonNode written = TenantDefinitionCodec.toJson(tenant);
        assertEquals(List.of(), validator.validate("docs.json", written));
        assertEquals(tenant, TenantDefinitionCodec.fromJson(written));

        List<TenantFileProblem> problems = validator.validate("bad.yaml", yaml("""
                id: bad
                store: {provider: lucene}
                embedder: {provider: onnx}
                ingest:
                  allowedOrigins: ["http://docs.example.com", "https://docs.example.com/guides", "https://user@docs.example.com",
                                   "https://docs.example.com:99999"]
                  colour: blue
                """));
        assertProblem(problems, "/ingest/allowedOrigins/0", "pattern");
        assertProblem(problems, "/ingest/allowedOrigins/1", "pattern");
        assertProblem(problems, "/ingest/allowedOrigins/2", "pattern");
        assertProblem(problems, "/ingest/allowedOrigins/3", "not an origin");
        assertProblem(problems, "/ingest/colour", "unknown field 'colour'");
    }

    @Test
    void withoutAnIngestSectionUrlIngestIsOff() throws Exception {
        TenantDefinition tenant = validator.parse("t.yaml", yaml("id: t\nstore: {provider: lucene}\nembedder: {provider: onnx}\n"));
        assertTrue(tenant.ingest().isEmpty());
    }

    @Test
    void parseThrowsWithEveryProblem() throws Exception {
        InvalidTenantDefinitionException e = assertThrows(InvalidTenantDefinitionException.class,
                () -> validator.parse("request", new ObjectMapper().readTree("{\"id\":\"x\",\"state\":\"DELETING\"}")));
        assertProblem(e.problems(), "/store", "missing required field 'store'");
        assertProblem(e.problems(), "/embedder", "missing required field 'embedder'");
        assertProblem(e.problems(), "/state", "enum");
        assertTrue(e.getMessage().contains("request: /store: missing required field 'store'"), e.getMessage());
    }

    @Test
    void aDocumentThatIsNotAnObjectIsNamedAsSuch() throws Exception {
        List<TenantFileProblem> problems = validator.validate("list.yaml", yaml("- a\n- b\n"));
        assertEquals(List.of(new TenantFileProblem("list.yaml", "", "a tenant must be a JSON/YAML object, got array")), problems);
    }

    static void assertProblem(List<TenantFileProblem> problems, String pointer, String reasonFragment) {
        assertTrue(problems.stream().anyMatch(p -> p.pointer().equals(pointer) && p.reason().contains(reasonFragment)),
                "expected a problem at " + pointer + " containing '" + reasonFragment + "' in " + problems);
    }

    private static JsonNode yaml(String text) throws Exception {
        return YAML.readTree(text);
    }
}
