package io.corpora.tenancy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.controlplane.AnswerPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.TenantDefinition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A tenant's generator and answer policy in the tenant document: validated, read and written back unchanged. */
class GeneratorConfigTest {

    private final TenantDefinitionValidator validator = TenantDefinitionValidator.packaged();

    @Test
    void aGeneratorAndAnAnswerPolicyRoundTrip() throws Exception {
        JsonNode document = Json.MAPPER.readTree("""
                {"id": "acme", "store": {"provider": "lucene"}, "embedder": {"provider": "onnx"},
                 "generator": {"provider": "openai", "config": {"baseUrl": "https://api.openai.com/v1", "model": "gpt-4o-mini",
                   "apiKey": "${config:corpora.openai.key}"}},
                 "answers": {"promptTemplate": "Answer from {context} only.", "multiQueryPhrasings": 3, "hyde": true, "maxTokens": 400}}""");

        assertEquals(List.of(), validator.validate("acme.json", document));
        TenantDefinition definition = TenantDefinitionCodec.fromJson(document);
        assertEquals(new PluginChoice("openai", Map.of("baseUrl", "https://api.openai.com/v1", "model", "gpt-4o-mini",
                "apiKey", "${config:corpora.openai.key}")), definition.generator());
        assertEquals(new AnswerPolicy("Answer from {context} only.", 3, true, 400), definition.answers());
        assertEquals(definition, TenantDefinitionCodec.fromJson(TenantDefinitionCodec.toJson(definition)));
    }

    @Test
    void withoutThemTheTenantHasNoGeneratorAndTransformsAreOff() throws Exception {
        TenantDefinition definition = TenantDefinitionCodec.fromJson(Json.MAPPER.readTree("""
                {"id": "plain", "store": {"provider": "lucene"}, "embedder": {"provider": "onnx"}}"""));
        assertNull(definition.generator());
        assertEquals(AnswerPolicy.DEFAULT, definition.answers());
        assertEquals(0, definition.answers().multiQueryPhrasings());
        assertTrue(definition.answers().template().contains("{context}"));
        assertTrue(!TenantDefinitionCodec.toJson(definition).has("answers"), "defaults are not written out");
    }

    @Test
    void aLiteralKeyATemplateWithoutContextAndTooManyPhrasingsAreRefused() throws Exception {
        JsonNode document = Json.MAPPER.readTree("""
                {"id": "acme", "store": {"provider": "lucene"}, "embedder": {"provider": "onnx"},
                 "generator": {"provider": "openai", "config": {"baseUrl": "https://api.openai.com/v1", "model": "m", "apiKey": "sk-live-123"}},
                 "answers": {"promptTemplate": "no placeholder here", "multiQueryPhrasings": 9}}""");

        List<String> pointers = validator.validate("acme.json", document).stream().map(TenantFileProblem::pointer).toList();

        assertTrue(pointers.contains("/generator/config/apiKey"), pointers.toString());
        assertTrue(pointers.contains("/answers/promptTemplate"), pointers.toString());
        assertTrue(pointers.contains("/answers/multiQueryPhrasings"), pointers.toString());
    }
}
