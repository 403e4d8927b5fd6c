package io.corpora.generate.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provider's declared options: bounds checked before create, the rest checked together by validate and by create. */
class ProviderOptionsTest {

    /** What create refuses, checking that validate refuses it in the same words without creating anything. */
    private static List<String> problems(Map<String, String> options) {
        List<String> refusedByCreate = assertThrows(InvalidConfigException.class, () -> TestGenerators.create(options)).problems();
        GeneratorProvider provider = TestGenerators.provider();
        List<String> refusedByValidate = assertThrows(InvalidConfigException.class,
                () -> provider.validate(PluginConfig.validate("openai", provider.configOptions(), options))).problems();
        assertEquals(refusedByCreate, refusedByValidate);
        return refusedByCreate;
    }

    @Test
    void theProviderIsFoundByNameAndDeclaresBoundsOnEveryNumberAndDuration() {
        List<ConfigOption> options = TestGenerators.provider().configOptions();
        for (ConfigOption option : options) {
            switch (option.type()) {
                case INT, LONG, DOUBLE, DURATION -> assertTrue(option.minimum() != null && option.maximum() != null, option.name());
                default -> { }
            }
        }
        assertEquals(List.of("model"), options.stream().filter(ConfigOption::required).map(ConfigOption::name).toList());
    }

    @Test
    void theApiKeyIsASecretAndNeverShown() {
        List<ConfigOption> options = TestGenerators.provider().configOptions();
        assertEquals(List.of("apiKey"), options.stream().filter(ConfigOption::secret).map(ConfigOption::name).toList());
        PluginConfig config = PluginConfig.validate("openai", options, Map.of("model", "m", "apiKey", TestGenerators.API_KEY));
        assertEquals("******", config.describe().get("apiKey"));
        try (Generator generator = TestGenerators.create(Map.of("model", "gpt-4o-mini", "apiKey", TestGenerators.API_KEY))) {
            String shown = generator.toString();
            assertEquals("OpenAiGenerator[gpt-4o-mini at https://api.openai.com/v1/chat/completions (headers [Authorization])]", shown);
            assertFalse(shown.contains(TestGenerators.API_KEY));
        }
    }

    @Test
    void declaredBoundsAreEnforcedBeforeCreate() {
        assertEquals(List.of("option 'maxRetries': must be at most 10, got 11",
                        "option 'maxTokens': must be at least 1, got 0",
                        "option 'temperature': must be at most 2, got 2.5"),
                problems(Map.of("model", "m", "maxRetries", "11", "maxTokens", "0", "temperature", "2.5")));
        assertEquals(List.of("option 'timeout': must be at least 1ms, got PT0S"), problems(Map.of("model", "m", "timeout", "0ms")));
        assertTrue(problems(Map.of()).contains("option 'model' is required"));
    }

    @Test
    void azureNeedsItsResourceUrlAndApiVersionAndTheShapesDoNotMix() {
        assertEquals(List.of("option 'baseUrl' is required for apiType azure (https://<resource>.openai.azure.com)",
                        "option 'organization' is for apiType openai only",
                        "option 'apiVersion' is required for apiType azure (e.g. 2024-10-21)"),
                problems(Map.of("apiType", "azure", "model", "gpt-4o", "organization", "org-1")));
        assertEquals(List.of("option 'deployment' (or 'model', its default) must be a plain deployment name, got 'my model'"),
                problems(Map.of("apiType", "azure", "baseUrl", "https://r.openai.azure.com", "model", "my model", "apiVersion", "2024-10-21")));
        assertEquals(List.of("option 'deployment' is for apiType azure only", "option 'apiVersion' is for apiType azure only"),
                problems(Map.of("model", "m", "deployment", "d", "apiVersion", "2024-10-21")));
    }

    @Test
    void unusableUrlsAndHeadersAreRefusedTogether() {
        assertEquals(List.of("option 'baseUrl' must not carry credentials; use the secret option 'apiKey'",
                        "option 'headers': entry 1 is not a 'Name: value' header",
                        "option 'headers' may not set 'Authorization': credentials go in the secret option 'apiKey'",
                        "option 'headers' may not set 'Content-Type': the plugin sets it"),
                problems(Map.of("model", "m", "baseUrl", "https://user:pw@gateway.example/v1",
                        "headers", "X-Token sk-secret, Authorization: Bearer sk-other, Content-Type: text/plain")));
        assertEquals(List.of("option 'baseUrl' must be an http or https URL, got 'ftp://models.example/v1'"),
                problems(Map.of("model", "m", "baseUrl", "ftp://models.example/v1")));
        assertEquals(List.of("option 'baseUrl' must not have a query or fragment (paths are appended to it)"),
                problems(Map.of("model", "m", "baseUrl", "https://gateway.example/v1?key=abc")));
        assertEquals(List.of("option 'retryDelay' must not exceed 'maxRetryDelay'"),
                problems(Map.of("model", "m", "retryDelay", "30s", "maxRetryDelay", "5s")));
    }

    @Test
    void aHeaderEntryWithoutAColonIsNotEchoedSinceItMayHoldASecret() {
        List<String> problems = problems(Map.of("model", "m", "headers", "X-Api-Token sk-live-123"));
        assertFalse(problems.toString().contains("sk-live-123"), problems.toString());
    }
}
