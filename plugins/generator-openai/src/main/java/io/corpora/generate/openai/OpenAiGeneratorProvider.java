package io.corpora.generate.openai;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A {@link Generator} over the OpenAI-compatible chat-completions API ({@code POST {baseUrl}/chat/completions}):
 * OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM and other gateways with {@code apiType=openai}; Azure OpenAI with
 * {@code apiType=azure} ({@code {baseUrl}/openai/deployments/{deployment}/chat/completions?api-version=…}, key in
 * an {@code api-key} header).
 */
public final class OpenAiGeneratorProvider implements GeneratorProvider {

    static final String BASE_URL = "baseUrl";
    static final String API_TYPE = "apiType";
    static final String MODEL = "model";
    static final String DEPLOYMENT = "deployment";
    static final String API_VERSION = "apiVersion";
    static final String API_KEY = "apiKey";
    static final String ORGANIZATION = "organization";
    static final String HEADERS = "headers";
    static final String CONNECT_TIMEOUT = "connectTimeout";
    static final String TIMEOUT = "timeout";
    static final String MAX_RETRIES = "maxRetries";
    static final String RETRY_DELAY = "retryDelay";
    static final String MAX_RETRY_DELAY = "maxRetryDelay";
    static final String MAX_TOKENS = "maxTokens";
    static final String MAX_TOKENS_FIELD = "maxTokensField";
    static final String TEMPERATURE = "temperature";
    static final String STREAM_USAGE = "streamUsage";
    static final String MAX_RESPONSE_BYTES = "maxResponseBytes";

    private static final String OPENAI_BASE_URL = "https://api.openai.com/v1";
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");
    private static final Pattern URL_SAFE = Pattern.compile("[A-Za-z0-9._~-]+");
    /** Credentials go through the secret 'apiKey'; the rest the plugin sets itself or the JDK refuses. */
    private static final Set<String> RESERVED_HEADERS = Set.of("authorization", "proxy-authorization", "api-key", "cookie",
            "content-type", "accept", "content-length", "host", "connection", "expect", "upgrade", "te", "transfer-encoding");

    @Override
    public String name() {
        return "openai";
    }

    @Override
    public String description() {
        return "Chat completions over the OpenAI-compatible API: OpenAI, Azure OpenAI, vLLM, Ollama, llama.cpp server, LiteLLM";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder(BASE_URL, ConfigType.STRING)
                        .description("URL the API paths hang off (http or https): " + OPENAI_BASE_URL + " (the default for "
                                + "apiType openai), http://host:8000/v1 (vLLM), http://host:11434/v1 (Ollama), http://host:8080/v1 "
                                + "(llama.cpp server), http://host:4000/v1 (LiteLLM); for azure the resource endpoint "
                                + "https://<resource>.openai.azure.com (required).").build(),
                ConfigOption.builder(API_TYPE, ConfigType.ENUM).defaultValue("openai").allowedValues("openai", "azure")
                        .description("openai: POST {baseUrl}/chat/completions with 'Authorization: Bearer <apiKey>'. azure: POST "
                                + "{baseUrl}/openai/deployments/{deployment}/chat/completions?api-version={apiVersion} with "
                                + "'api-key: <apiKey>'.").build(),
                ConfigOption.builder(MODEL, ConfigType.STRING).required()
                        .description("Model name sent with every request and reported as the generator's model id (for Azure the "
                                + "model behind the deployment, e.g. gpt-4o-mini).").build(),
                ConfigOption.builder(DEPLOYMENT, ConfigType.STRING)
                        .description("Azure only: the deployment name in the URL; defaults to 'model'.").build(),
                ConfigOption.builder(API_VERSION, ConfigType.STRING)
                        .description("Azure only, required there: the api-version query parameter, e.g. 2024-10-21.").build(),
                ConfigOption.builder(API_KEY, ConfigType.STRING).secret()
                        .description("The API key: 'Authorization: Bearer <key>' (openai) or 'api-key: <key>' (azure). Omit for a "
                                + "server without authentication.").build(),
                ConfigOption.builder(ORGANIZATION, ConfigType.STRING)
                        .description("openai only: sent as the 'OpenAI-Organization' header.").build(),
                ConfigOption.builder(HEADERS, ConfigType.LIST)
                        .description("Extra request headers as 'Name: value' entries, comma-separated (so no value may contain a "
                                + "comma), e.g. for a gateway's routing; not for credentials (use 'apiKey').").build(),
                ConfigOption.builder(CONNECT_TIMEOUT, ConfigType.DURATION).defaultValue("10s").minimum("1ms").maximum("5m")
                        .description("Longest wait for a connection to the endpoint.").build(),
                ConfigOption.builder(TIMEOUT, ConfigType.DURATION).defaultValue("60s").minimum("1ms").maximum("30m")
                        .description("Longest wait for the response to begin (for a plain call: for the whole answer to be "
                                + "generated), and then between two pieces of it.").build(),
                ConfigOption.builder(MAX_RETRIES, ConfigType.INT).defaultValue(2).minimum(0).maximum(10)
                        .description("Attempts after the first, on 408, 429 and 5xx answers and failed connections, only before "
                                + "any of the answer arrived.").build(),
                ConfigOption.builder(RETRY_DELAY, ConfigType.DURATION).defaultValue("500ms").minimum("0ms").maximum("1m")
                        .description("Backoff before the first retry, doubling for each further one, with random jitter.").build(),
                ConfigOption.builder(MAX_RETRY_DELAY, ConfigType.DURATION).defaultValue("20s").minimum("1ms").maximum("10m")
                        .description("Longest single wait between attempts; a server asking (Retry-After) for longer ends the "
                                + "retries.").build(),
                ConfigOption.builder(MAX_TOKENS, ConfigType.INT).minimum(1).maximum(1_000_000)
                        .description("Default most tokens to generate, when the request sets none; unset: the backend's default.")
                        .build(),
                ConfigOption.builder(MAX_TOKENS_FIELD, ConfigType.ENUM).defaultValue("max_tokens")
                        .allowedValues("max_tokens", "max_completion_tokens")
                        .description("The request field carrying the token limit: max_tokens (every compatible server) or "
                                + "max_completion_tokens (OpenAI's reasoning models refuse max_tokens).").build(),
                ConfigOption.builder(TEMPERATURE, ConfigType.DOUBLE).minimum(0).maximum(2)
                        .description("Default sampling temperature, when the request sets none; unset: the backend's default.")
                        .build(),
                ConfigOption.builder(STREAM_USAGE, ConfigType.BOOLEAN).defaultValue(true)
                        .description("Ask for token usage at the end of a stream (stream_options.include_usage); turn off for a "
                                + "server that refuses the field.").build(),
                ConfigOption.builder(MAX_RESPONSE_BYTES, ConfigType.LONG).defaultValue(8L * 1024 * 1024).minimum(1024)
                        .maximum(1024L * 1024 * 1024)
                        .description("Largest response accepted, a whole stream included, in bytes.").build());
    }

    /** The base URL, the API type's options and the retry delays, as {@link #create} checks them. */
    @Override
    public void validate(PluginConfig config) {
        endpoint(config);
    }

    @Override
    public Generator create(PluginContext context, PluginConfig config) {
        ChatEndpoint endpoint = endpoint(config);
        String model = config.requireString(MODEL).trim();
        ChatCompletionsJson.Defaults defaults = new ChatCompletionsJson.Defaults(model,
                config.has(MAX_TOKENS) ? config.getInt(MAX_TOKENS) : null, config.requireString(MAX_TOKENS_FIELD),
                config.has(TEMPERATURE) ? config.getDouble(TEMPERATURE) : null, config.getBoolean(STREAM_USAGE));
        return new OpenAiGenerator(new OpenAiGenerator.Settings(endpoint, defaults,
                config.getDuration(CONNECT_TIMEOUT), config.getDuration(TIMEOUT),
                new RetryPolicy(config.getInt(MAX_RETRIES), config.getDuration(RETRY_DELAY), config.getDuration(MAX_RETRY_DELAY)),
                config.getLong(MAX_RESPONSE_BYTES)));
    }

    /** Where the chat completions go, with their headers; every problem of the configuration at once otherwise. */
    private ChatEndpoint endpoint(PluginConfig config) {
        List<String> problems = new ArrayList<>();
        boolean azure = config.requireString(API_TYPE).equals("azure");
        String model = config.requireString(MODEL).trim();
        URI base = baseUrl(config.getString(BASE_URL).orElse(azure ? null : OPENAI_BASE_URL), problems);
        Map<String, String> headers = new LinkedHashMap<>(extraHeaders(config.getList(HEADERS), problems));
        URI uri = null;
        if (azure) {
            config.getString(ORGANIZATION).ifPresent(ignored -> problems.add("option '" + ORGANIZATION + "' is for apiType openai only"));
            String deployment = config.getString(DEPLOYMENT).orElse(model).trim();
            String apiVersion = config.getString(API_VERSION).map(String::trim).orElse(null);
            if (!URL_SAFE.matcher(deployment).matches()) {
                problems.add("option '" + DEPLOYMENT + "' (or 'model', its default) must be a plain deployment name, got '" + deployment + "'");
            }
            if (apiVersion == null) {
                problems.add("option '" + API_VERSION + "' is required for apiType azure (e.g. 2024-10-21)");
            } else if (!URL_SAFE.matcher(apiVersion).matches()) {
                problems.add("option '" + API_VERSION + "' must look like 2024-10-21, got '" + apiVersion + "'");
            }
            if (base != null && problems.isEmpty()) {
                uri = URI.create(base + "/openai/deployments/" + deployment + "/chat/completions?api-version="
                        + URLEncoder.encode(apiVersion, StandardCharsets.UTF_8));
            }
            config.getString(API_KEY).ifPresent(key -> headers.put("api-key", key));
        } else {
            for (String azureOnly : List.of(DEPLOYMENT, API_VERSION)) {
                config.getString(azureOnly).ifPresent(ignored -> problems.add("option '" + azureOnly + "' is for apiType azure only"));
            }
            if (base != null) {
                uri = URI.create(base + "/chat/completions");
            }
            config.getString(API_KEY).ifPresent(key -> headers.put("Authorization", "Bearer " + key));
            config.getString(ORGANIZATION).ifPresent(organization -> headers.put("OpenAI-Organization", organization));
        }
        if (model.isEmpty()) {
            problems.add("option '" + MODEL + "' must not be blank");
        }
        if (config.getDuration(RETRY_DELAY).compareTo(config.getDuration(MAX_RETRY_DELAY)) > 0) {
            problems.add("option '" + RETRY_DELAY + "' must not exceed '" + MAX_RETRY_DELAY + "'");
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(name(), problems);
        }
        return ChatEndpoint.of(uri, headers);
    }

    /** The base URL without a trailing slash; null (with a problem) when unusable. */
    private static URI baseUrl(String value, List<String> problems) {
        if (value == null) {
            problems.add("option '" + BASE_URL + "' is required for apiType azure (https://<resource>.openai.azure.com)");
            return null;
        }
        String text = value.trim();
        while (text.endsWith("/")) {
            text = text.substring(0, text.length() - 1);
        }
        try {
            URI uri = new URI(text);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                problems.add("option '" + BASE_URL + "' must be an http or https URL, got '" + text + "'");
            } else if (uri.getHost() == null) {
                problems.add("option '" + BASE_URL + "' has no host: '" + text + "'");
            } else if (uri.getRawUserInfo() != null) {
                problems.add("option '" + BASE_URL + "' must not carry credentials; use the secret option '" + API_KEY + "'");
            } else if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
                problems.add("option '" + BASE_URL + "' must not have a query or fragment (paths are appended to it)");
            } else {
                return uri;
            }
        } catch (URISyntaxException e) {
            problems.add("option '" + BASE_URL + "' is not a valid URL: " + e.getMessage());
        }
        return null;
    }

    private static Map<String, String> extraHeaders(List<String> entries, List<String> problems) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            String entry = entries.get(i);
            int colon = entry.indexOf(':');
            String name = colon < 0 ? "" : entry.substring(0, colon).trim();
            String value = colon < 0 ? "" : entry.substring(colon + 1).trim();
            if (!HEADER_NAME.matcher(name).matches()) { // the entry itself is not quoted: it may hold a value
                problems.add("option '" + HEADERS + "': entry " + (i + 1) + " is not a 'Name: value' header");
            } else if (RESERVED_HEADERS.contains(name.toLowerCase(Locale.ROOT))) {
                problems.add("option '" + HEADERS + "' may not set '" + name + "'" + (name.toLowerCase(Locale.ROOT).contains("auth")
                        || name.equalsIgnoreCase("api-key") || name.equalsIgnoreCase("cookie")
                        ? ": credentials go in the secret option '" + API_KEY + "'" : ": the plugin sets it"));
            } else if (value.chars().anyMatch(c -> c < 0x20 && c != '\t')) {
                problems.add("option '" + HEADERS + "': the value of '" + name + "' has control characters");
            } else {
                headers.put(name, value);
            }
        }
        return headers;
    }
}
