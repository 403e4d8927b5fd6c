package io.corpora.tenancy.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.AnswerPolicy;
import io.corpora.controlplane.IngestPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Maps the tenant document (the shape {@code tenant.schema.json} describes; a tenant file or an admin API body) to a
 * {@link TenantDefinition} and back. Reading assumes the document already passed {@link TenantDefinitionValidator}.
 */
public final class TenantDefinitionCodec {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private TenantDefinitionCodec() {}

    /** The definition a validated document declares; an omitted state reads as ACTIVE. */
    public static TenantDefinition fromJson(JsonNode document) {
        JsonNode state = document.get("state");
        return new TenantDefinition(
                document.get("id").asText(),
                text(document, "displayName"),
                state == null || state.isNull() ? TenantState.ACTIVE : TenantState.valueOf(state.asText()),
                plugin(document.get("store")),
                plugin(document.get("embedder")),
                plugin(document.get("reranker")),
                retrieval(document.get("retrieval")),
                quotas(document.get("quotas")),
                access(document.get("access")),
                ingest(document.get("ingest")),
                plugin(document.get("generator")),
                answers(document.get("answers")));
    }

    /** Whether the document sets {@code state}; sync leaves the stored state alone when it does not. */
    public static boolean declaresState(JsonNode document) {
        JsonNode state = document.get("state");
        return state != null && !state.isNull();
    }

    public static ObjectNode toJson(TenantDefinition definition) {
        ObjectNode out = NODES.objectNode();
        out.put("id", definition.id());
        out.put("displayName", definition.displayName());
        out.put("state", definition.state().name());
        out.set("store", plugin(definition.store()));
        out.set("embedder", plugin(definition.embedder()));
        if (definition.reranker() != null) {
            out.set("reranker", plugin(definition.reranker()));
        }
        RetrievalDefaults r = definition.retrieval();
        ObjectNode retrieval = out.putObject("retrieval");
        retrieval.put("mode", r.mode());
        retrieval.put("topK", r.topK());
        if (r.minScore() == null) {
            retrieval.putNull("minScore");
        } else {
            retrieval.put("minScore", r.minScore());
        }
        if (r.maxChars() == null) {
            retrieval.putNull("maxChars");
        } else {
            retrieval.put("maxChars", r.maxChars());
        }
        retrieval.put("rerank", r.rerank());
        if (!r.fusion().equals(FusionSpec.STANDARD)) {
            FusionSpec f = r.fusion();
            ObjectNode fusion = retrieval.putObject("fusion");
            fusion.put("method", f.method());
            fusion.put("k", f.k());
            ObjectNode weights = fusion.putObject("weights");
            weights.put("vector", f.vectorWeight());
            weights.put("keyword", f.keywordWeight());
            fusion.put("alpha", f.alpha());
            fusion.put("normalization", f.normalization());
        }
        Quotas q = definition.quotas();
        ObjectNode quotas = out.putObject("quotas");
        quotas.put("maxDocuments", q.maxDocuments());
        quotas.put("maxChunks", q.maxChunks());
        quotas.put("maxBytes", q.maxBytes());
        quotas.put("requestsPerMinute", q.requestsPerMinute());
        quotas.put("ingestsPerMinute", q.ingestsPerMinute());
        ObjectNode access = out.putObject("access");
        definition.access().partitions().forEach(access.putArray("partitions")::add);
        if (definition.access().filterHook() != null) {
            access.set("filterHook", plugin(definition.access().filterHook()));
        }
        ObjectNode ingest = out.putObject("ingest");
        definition.ingest().allowedOrigins().forEach(ingest.putArray("allowedOrigins")::add);
        definition.ingest().privateOrigins().forEach(ingest.putArray("privateOrigins")::add);
        if (definition.generator() != null) {
            out.set("generator", plugin(definition.generator()));
        }
        AnswerPolicy a = definition.answers();
        if (!a.equals(AnswerPolicy.DEFAULT)) {
            ObjectNode answers = out.putObject("answers");
            if (a.promptTemplate() != null) {
                answers.put("promptTemplate", a.promptTemplate());
            }
            answers.put("multiQueryPhrasings", a.multiQueryPhrasings());
            answers.put("hyde", a.hyde());
            if (a.maxTokens() != null) {
                answers.put("maxTokens", a.maxTokens());
            }
        }
        return out;
    }

    private static PluginChoice plugin(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        Map<String, String> config = new TreeMap<>();
        JsonNode options = node.get("config");
        if (options != null) {
            options.fields().forEachRemaining(e -> config.put(e.getKey(), optionValue(e.getValue())));
        }
        return new PluginChoice(node.get("provider").asText(), config);
    }

    /** Options reach plugins as strings; a list becomes the comma-separated form of the SPI's LIST type. */
    static String optionValue(JsonNode value) {
        if (value.isArray()) {
            List<String> items = new ArrayList<>();
            value.forEach(item -> items.add(item.asText()));
            return String.join(",", items);
        }
        return value.asText();
    }

    private static ObjectNode plugin(PluginChoice choice) {
        ObjectNode out = NODES.objectNode();
        out.put("provider", choice.provider());
        ObjectNode config = out.putObject("config");
        new TreeMap<>(choice.config()).forEach(config::put);
        return out;
    }

    private static RetrievalDefaults retrieval(JsonNode node) {
        RetrievalDefaults standard = RetrievalDefaults.STANDARD;
        if (node == null || node.isNull()) {
            return standard;
        }
        return new RetrievalDefaults(
                node.has("mode") ? node.get("mode").asText() : standard.mode(),
                node.has("topK") ? node.get("topK").asInt() : standard.topK(),
                node.has("minScore") ? nullableDouble(node.get("minScore")) : standard.minScore(),
                node.has("maxChars") ? nullableInt(node.get("maxChars")) : standard.maxChars(),
                node.has("rerank") ? node.get("rerank").asBoolean() : standard.rerank(),
                fusion(node.get("fusion")));
    }

    /** {@code retrieval.fusion}: absent fields keep the standard's values. */
    static FusionSpec fusion(JsonNode node) {
        FusionSpec standard = FusionSpec.STANDARD;
        if (node == null || node.isNull()) {
            return standard;
        }
        JsonNode weights = node.path("weights");
        return new FusionSpec(
                node.has("method") ? node.get("method").asText() : standard.method(),
                node.has("k") ? node.get("k").asDouble() : standard.k(),
                weights.has("vector") ? weights.get("vector").asDouble() : standard.vectorWeight(),
                weights.has("keyword") ? weights.get("keyword").asDouble() : standard.keywordWeight(),
                node.has("alpha") ? node.get("alpha").asDouble() : standard.alpha(),
                node.has("normalization") ? node.get("normalization").asText() : standard.normalization());
    }

    private static AnswerPolicy answers(JsonNode node) {
        if (node == null || node.isNull()) {
            return AnswerPolicy.DEFAULT;
        }
        return new AnswerPolicy(text(node, "promptTemplate"), node.path("multiQueryPhrasings").asInt(0),
                node.path("hyde").asBoolean(false), node.hasNonNull("maxTokens") ? node.get("maxTokens").asInt() : null);
    }

    private static Quotas quotas(JsonNode node) {
        if (node == null || node.isNull()) {
            return Quotas.UNLIMITED;
        }
        return new Quotas(node.path("maxDocuments").asLong(0), node.path("maxChunks").asLong(0), node.path("maxBytes").asLong(0),
                node.path("requestsPerMinute").asInt(0), node.path("ingestsPerMinute").asInt(0));
    }

    private static AccessPolicy access(JsonNode node) {
        if (node == null || node.isNull()) {
            return AccessPolicy.NONE;
        }
        List<String> partitions = new ArrayList<>();
        node.path("partitions").forEach(p -> partitions.add(p.asText()));
        return new AccessPolicy(plugin(node.get("filterHook")), partitions);
    }

    private static IngestPolicy ingest(JsonNode node) {
        if (node == null || node.isNull()) {
            return IngestPolicy.NONE;
        }
        return new IngestPolicy(strings(node.path("allowedOrigins")), strings(node.path("privateOrigins")));
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }

    private static Double nullableDouble(JsonNode value) {
        return value.isNull() ? null : value.asDouble();
    }

    private static Integer nullableInt(JsonNode value) {
        return value.isNull() ? null : value.asInt();
    }

    /** The document as a plain map (for JSON-B responses in the server). */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> toMap(TenantDefinition definition) {
        return new LinkedHashMap<>(Json.MAPPER.convertValue(toJson(definition), Map.class));
    }
}
