package io.corpora.rerank.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Locale;

/**
 * The rerank wire formats in common use. Each builds its request body and finds, in its response, the list of
 * {@code (index, score)} results; {@link ScoreTable} then checks that every document got exactly one finite score.
 */
enum RerankFormat {

    /** Cohere {@code POST /v2/rerank}: {model, query, documents, top_n} → {results: [{index, relevance_score}]}. */
    COHERE("https://api.cohere.com/v2/rerank", true, "relevance_score") {
        @Override
        ObjectNode requestBody(ObjectMapper json, String model, String query, List<String> texts) {
            ObjectNode body = json.createObjectNode().put("model", model).put("query", query);
            addAll(body.putArray("documents"), texts);
            return body.put("top_n", texts.size());
        }

        @Override
        JsonNode results(JsonNode response) {
            return response.path("results");
        }
    },

    /** Jina {@code POST /v1/rerank}: Cohere v1's shape; documents are not echoed back. */
    JINA("https://api.jina.ai/v1/rerank", true, "relevance_score") {
        @Override
        ObjectNode requestBody(ObjectMapper json, String model, String query, List<String> texts) {
            ObjectNode body = json.createObjectNode().put("model", model).put("query", query);
            addAll(body.putArray("documents"), texts);
            return body.put("top_n", texts.size()).put("return_documents", false);
        }

        @Override
        JsonNode results(JsonNode response) {
            return response.path("results");
        }
    },

    /** Voyage {@code POST /v1/rerank}: {query, documents, model} → {data: [{index, relevance_score}]}. */
    VOYAGE("https://api.voyageai.com/v1/rerank", true, "relevance_score") {
        @Override
        ObjectNode requestBody(ObjectMapper json, String model, String query, List<String> texts) {
            ObjectNode body = json.createObjectNode().put("query", query);
            addAll(body.putArray("documents"), texts);
            return body.put("model", model);
        }

        @Override
        JsonNode results(JsonNode response) {
            return response.path("data");
        }
    },

    /** Hugging Face Text Embeddings Inference {@code POST /rerank}: {query, texts} → [{index, score}]. */
    TEI(null, false, "score") {
        @Override
        ObjectNode requestBody(ObjectMapper json, String model, String query, List<String> texts) {
            ObjectNode body = json.createObjectNode().put("query", query);
            addAll(body.putArray("texts"), texts);
            return body;
        }

        @Override
        JsonNode results(JsonNode response) {
            return response;
        }
    };

    private final String defaultEndpoint;
    private final boolean requiresModel;
    private final String scoreField;

    RerankFormat(String defaultEndpoint, boolean requiresModel, String scoreField) {
        this.defaultEndpoint = defaultEndpoint;
        this.requiresModel = requiresModel;
        this.scoreField = scoreField;
    }

    /** The option value naming this format, e.g. {@code cohere}. */
    String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    static RerankFormat fromOption(String value) {
        return valueOf(value.toUpperCase(Locale.ROOT));
    }

    /** The hosted service's URL, or null when the format has no single host (TEI is self-hosted). */
    String defaultEndpoint() {
        return defaultEndpoint;
    }

    /** Hosted services serve several models and need one named; TEI serves the one it was started with. */
    boolean requiresModel() {
        return requiresModel;
    }

    /** The field holding each result's score. */
    String scoreField() {
        return scoreField;
    }

    abstract ObjectNode requestBody(ObjectMapper json, String model, String query, List<String> texts);

    /** The array of result objects in a response (a missing node when the response has another shape). */
    abstract JsonNode results(JsonNode response);

    private static void addAll(ArrayNode array, List<String> texts) {
        texts.forEach(array::add);
    }
}
