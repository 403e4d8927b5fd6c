package io.corpora.rerank.http;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A {@link Reranker} calling a rerank HTTP API in one of the common wire formats. */
public final class HttpRerankerProvider implements RerankerProvider {

    static final String FORMAT = "format";
    static final String ENDPOINT = "endpoint";
    static final String MODEL = "model";
    static final String API_KEY = "apiKey";
    static final String TIMEOUT = "timeout";
    static final String MAX_RESPONSE_BYTES = "maxResponseBytes";
    static final String BATCH_SIZE = "batchSize";

    @Override
    public String name() {
        return "http";
    }

    @Override
    public String description() {
        return "Rerank through an HTTP API: Cohere, Jina, Voyage or Hugging Face Text Embeddings Inference wire format";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder(FORMAT, ConfigType.ENUM).required().allowedValues("cohere", "jina", "voyage", "tei")
                        .description("Wire format: cohere (/v2/rerank), jina (/v1/rerank), voyage (/v1/rerank), "
                                + "tei (Hugging Face Text Embeddings Inference /rerank).").build(),
                ConfigOption.builder(ENDPOINT, ConfigType.STRING)
                        .description("Full URL of the rerank endpoint (http or https). Defaults to the hosted service's "
                                + "URL for cohere, jina and voyage; required for tei.").build(),
                ConfigOption.builder(MODEL, ConfigType.STRING)
                        .description("Model name sent with each request; required for cohere, jina and voyage, unused by tei.")
                        .build(),
                ConfigOption.builder(API_KEY, ConfigType.STRING).secret()
                        .description("Sent as 'Authorization: Bearer <key>'; omit for an endpoint without authentication.")
                        .build(),
                ConfigOption.builder(TIMEOUT, ConfigType.DURATION).defaultValue("10s").minimum("1ms")
                        .description("Longest wait for one batch, connection and whole response included.").build(),
                ConfigOption.builder(MAX_RESPONSE_BYTES, ConfigType.LONG).defaultValue(1024 * 1024).minimum(1)
                        .description("Largest response body accepted, in bytes.").build(),
                ConfigOption.builder(BATCH_SIZE, ConfigType.INT).defaultValue(32).minimum(1)
                        .description("Most texts per request (TEI's default --max-client-batch-size is 32); more texts "
                                + "are sent as several requests.").build());
    }

    /** The model and the endpoint the format needs, as {@link #create} checks them. */
    @Override
    public void validate(PluginConfig config) {
        settings(config);
    }

    @Override
    public Reranker create(PluginContext context, PluginConfig config) {
        return new HttpReranker(settings(config));
    }

    private HttpReranker.Settings settings(PluginConfig config) {
        List<String> problems = new ArrayList<>();
        RerankFormat format = RerankFormat.fromOption(config.requireString(FORMAT));
        String model = config.getString(MODEL).orElse(null);
        if (format.requiresModel() && model == null) {
            problems.add("option '" + MODEL + "' is required for format " + format.optionValue());
        }
        URI endpoint = endpoint(config.getString(ENDPOINT).orElse(format.defaultEndpoint()), format, problems);
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(name(), problems);
        }
        return new HttpReranker.Settings(format, endpoint, model, config.getString(API_KEY).orElse(null),
                config.getDuration(TIMEOUT), config.getLong(MAX_RESPONSE_BYTES), config.getInt(BATCH_SIZE));
    }

    private static URI endpoint(String value, RerankFormat format, List<String> problems) {
        if (value == null) {
            problems.add("option '" + ENDPOINT + "' is required for format " + format.optionValue());
            return null;
        }
        try {
            URI uri = new URI(value.trim());
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https")) {
                problems.add("option '" + ENDPOINT + "' must be an http or https URL, got scheme '" + scheme + "'");
            } else if (uri.getHost() == null) {
                problems.add("option '" + ENDPOINT + "' has no host");
            } else if (uri.getRawUserInfo() != null) {
                problems.add("option '" + ENDPOINT + "' must not carry credentials; use the secret option '" + API_KEY + "'");
            }
            return uri;
        } catch (URISyntaxException e) {
            problems.add("option '" + ENDPOINT + "' is not a valid URL: " + e.getMessage());
            return null;
        }
    }
}
