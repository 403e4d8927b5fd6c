package io.corpora.server.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import io.corpora.access.TenantView;
import io.corpora.answer.Answer;
import io.corpora.answer.AnswerListener;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.retrieval.RetrieveLimits;
import io.corpora.server.api.model.DocumentView;
import io.corpora.server.api.model.RetrievalResult;
import io.corpora.spi.Chunk;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The MCP tools: their declared input schemas (JSON Schema 2020-12, validated before a tool runs) and what they do,
 * each over one request's {@link TenantView}. A tool's result is its JSON as text content and as structured content.
 */
final class McpTools {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonSchemaFactory SCHEMAS = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);
    static final int MAX_LIST = 100;

    /** A tool's arguments did not match its schema: a tool error naming every problem. */
    static final class InvalidArguments extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        InvalidArguments(String message) {
            super(message);
        }
    }

    /** One tool: name, description, input schema and body. */
    record Tool(String name, String description, ObjectNode inputSchema, JsonSchema schema, boolean needsGenerator,
                Function<Call, Object> body) {}

    /** What a tool runs with: its validated arguments and the view of its partition. */
    record Call(JsonNode arguments, Function<String, TenantView> viewOfPartition, RetrieveLimits limits) {
        TenantView view() {
            return viewOfPartition.apply(text(arguments, "partition"));
        }
    }

    private final Map<String, Tool> tools = new LinkedHashMap<>();

    McpTools() {
        String retrievalProperties = """
                "topK": {"type": "integer", "minimum": 1, "maximum": 100, "description": "Passages to retrieve (tenant default when absent)"},
                "mode": {"enum": ["vector", "keyword", "hybrid"], "description": "Retrieval mode (tenant default when absent)"},
                "filter": {"type": "object", "description": "Metadata filter, as on the REST retrieve route; it can only narrow what you may see"},
                "partition": {"type": "string", "description": "Partition to search (a partition-bound token's own when absent)"}""";
        add("search", "Search the tenant's documents: the passages you may see that best match the query, with citations and a"
                + " numbered context block.", """
                {"type": "object", "additionalProperties": false, "required": ["query"], "properties": {
                  "query": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "What to search for"},
                """ + retrievalProperties + "}}", false, call -> RetrievalResult.of(call.view().retrieve(command(call, "query"))));
        add("ask", "Answer a question from the tenant's documents you may see, citing passages as [n]; says it does not know"
                + " when no passage matches.", """
                {"type": "object", "additionalProperties": false, "required": ["question"], "properties": {
                  "question": {"type": "string", "minLength": 1, "maxLength": 4096, "description": "The question"},
                """ + retrievalProperties + "}}", true, call -> answer(call.view().ask(command(call, "question"), AnswerListener.NONE)));
        add("list_documents", "List the documents you may see, in id order, a page at a time.", """
                {"type": "object", "additionalProperties": false, "properties": {
                  "after": {"type": "string", "description": "The 'next' of the previous page"},
                  "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20},
                  "partition": {"type": "string"}}}""", false, McpTools::listDocuments);
        add("get_document", "One document you may see: its metadata and the text of its chunks.", """
                {"type": "object", "additionalProperties": false, "required": ["id"], "properties": {
                  "id": {"type": "string", "minLength": 1, "maxLength": 1024, "description": "The document id"},
                  "partition": {"type": "string"}}}""", false, call -> document(call.view(), text(call.arguments(), "id"))
                .orElseThrow(() -> new DocumentNotFound(text(call.arguments(), "id"))));
    }

    private void add(String name, String description, String schema, boolean needsGenerator, Function<Call, Object> body) {
        try {
            ObjectNode node = (ObjectNode) JSON.readTree(schema);
            tools.put(name, new Tool(name, description, node, SCHEMAS.getSchema(node), needsGenerator, body));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("tool schema of " + name, e);
        }
    }

    List<Tool> all() {
        return List.copyOf(tools.values());
    }

    Optional<Tool> find(String name) {
        return Optional.ofNullable(tools.get(name));
    }

    /** Refuses arguments that do not match the tool's schema, naming each problem. */
    static void validate(Tool tool, JsonNode arguments) {
        Set<ValidationMessage> problems = tool.schema().validate(arguments);
        if (!problems.isEmpty()) {
            Set<String> messages = new TreeSet<>();
            problems.forEach(p -> messages.add(p.getMessage()));
            throw new InvalidArguments("invalid arguments for tool '" + tool.name() + "': " + String.join("; ", messages));
        }
    }

    /** A document that is absent or hidden (the same answer for both). */
    static final class DocumentNotFound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        DocumentNotFound(String id) {
            super("document '" + id + "' not found");
        }
    }

    @SuppressWarnings("unchecked")
    private static RetrieveCommand command(Call call, String textField) {
        JsonNode a = call.arguments();
        Map<String, Object> filter = a.hasNonNull("filter") ? JSON.convertValue(a.get("filter"), Map.class) : null;
        return new RetrieveCommand(call.limits().query(text(a, textField)), text(a, "mode"), a.hasNonNull("topK") ? a.get("topK").asInt() : null,
                call.limits().filter(filter), null, null, null, 0, null);
    }

    private static Object answer(Answer answer) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("answer", answer.answer());
        out.put("citations", answer.citations());
        out.put("noSource", answer.diagnostics().noSource());
        out.put("removedCitations", answer.diagnostics().removedCitations());
        return out;
    }

    private static Object listDocuments(Call call) {
        JsonNode a = call.arguments();
        int limit = a.hasNonNull("limit") ? a.get("limit").asInt() : 20;
        TenantView.DocumentPage page = call.view().documents(text(a, "after"), limit, d -> true);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("documents", page.documents().stream().map(DocumentView::of).toList());
        out.put("next", page.next());
        return out;
    }

    /** The document's registry view and its visible chunks' text, or empty when absent or hidden. */
    static Optional<Map<String, Object>> document(TenantView view, String id) {
        Optional<DocumentRecord> record = view.document(id);
        if (record.isEmpty()) {
            return Optional.empty();
        }
        List<Map<String, Object>> chunks = new ArrayList<>();
        for (Chunk chunk : view.chunks(id).orElse(List.of())) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("index", chunk.index());
            c.put("headingPath", chunk.headingPath());
            c.put("text", chunk.text());
            chunks.add(c);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> out = new LinkedHashMap<>(JSON.convertValue(DocumentView.of(record.get()), Map.class));
        out.put("chunks", chunks);
        return Optional.of(out);
    }

    static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
