package io.corpora.server.mcp;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.TenantFixtures;
import io.corpora.testkit.ChatCompletionsStandIn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code /mcp} with a client nobody here wrote: the official MCP TypeScript SDK ({@code src/test/mcp-client}, run with
 * the machine's Node.js) over Streamable HTTP, with the tokens of two tenants; and every tool over raw JSON-RPC with a
 * reader who may not see one document, which must never come back — nor reach the prompt the generator stand-in receives.
 */
class McpServerIT extends DeployedServer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path CLIENT = Path.of("src/test/mcp-client");

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @Test
    void theOfficialTypeScriptClientSearchesEachTenantOnlyInItsOwnCorpus() throws Exception {
        String volcanoes = tenant("mcpa", Map.of("lava", "Volcanoes erupt molten rock called lava from magma chambers."), null);
        String glaciers = tenant("mcpb", Map.of("ice", "Glaciers are slow rivers of ice that carve valleys."), null);
        String tokenA = client.token("a", volcanoes, Roles.READER);
        String tokenB = client.token("b", glaciers, Roles.READER);

        List<JsonNode> sessions = runClient("molten rock", tokenA, tokenB);

        assertEquals(2, sessions.size(), sessions.toString());
        for (JsonNode session : sessions) {
            assertEquals("corpora", session.get("server").get("name").asText());
            List<String> tools = strings(session.get("tools"));
            assertEquals(List.of("search", "list_documents", "get_document"), tools, "no generator: no ask tool");
            assertFalse(session.get("search").path("isError").asBoolean(), session.toString());
            assertTrue(session.get("invalid").get("isError").asBoolean(), "schema violations are tool errors: " + session);
            assertTrue(session.get("invalid").get("content").get(0).get("text").asText().contains("invalid arguments"), session.toString());
        }
        assertEquals(List.of("lava"), documentIds(sessions.get(0).get("search")));
        assertEquals(List.of("ice"), documentIds(sessions.get(1).get("search")));
        assertEquals(List.of("corpora://documents/lava"), strings(sessions.get(0).get("resources")));
        assertEquals(List.of("corpora://documents/ice"), strings(sessions.get(1).get("resources")));
    }

    @Test
    void everyToolAppliesTheAccessDecision() throws Exception {
        try (ChatCompletionsStandIn standIn = new ChatCompletionsStandIn()) {
            standIn.answer(completion("The city rate [1].", "stand-in-model", 10, 3));
            Map<String, Object> generator = Map.of("provider", "openai", "config", Map.of("baseUrl", standIn.baseUrl(), "model", "m",
                    "maxRetries", 0));
            String tenant = tenant("mcpacl", Map.of(), generator);
            String writer = client.token("w", tenant, List.of(Roles.WRITER), Map.of("acl_groups", List.of("legal", "board")));
            post(tenant, writer, "policy", "Hotel stays are reimbursed up to the city rate.", "group:legal");
            post(tenant, writer, "memo", "Hotel stays of executives are reimbursed at cost, says the board memo.", "group:board");
            String reader = client.token("r", tenant, List.of(Roles.READER), Map.of("acl_groups", List.of("legal")));

            assertEquals(List.of("search", "ask", "list_documents", "get_document"), strings(rpc(reader, "tools/list", Map.of())
                    .get("result").get("tools"), "name"));
            JsonNode search = tool(reader, "search", Map.of("query", "hotel stays reimbursed"));
            assertEquals(List.of("policy"), documentIds(search));
            JsonNode ask = tool(reader, "ask", Map.of("question", "How are hotel stays reimbursed?"));
            assertFalse(ask.path("isError").asBoolean(), ask.toString());
            assertEquals("The city rate [1].", ask.get("structuredContent").get("answer").asText());
            String prompt = standIn.only().body().get("messages").toString();
            assertTrue(prompt.contains("city rate"), prompt);
            assertFalse(prompt.contains("executives"), "a hidden passage reached the prompt: " + prompt);
            JsonNode listed = tool(reader, "list_documents", Map.of());
            assertEquals(List.of("policy"), strings(listed.get("structuredContent").get("documents"), "id"));
            assertTrue(tool(reader, "get_document", Map.of("id", "memo")).get("isError").asBoolean(), "hidden is absent");
            JsonNode visible = tool(reader, "get_document", Map.of("id", "policy"));
            assertTrue(visible.get("structuredContent").get("chunks").get(0).get("text").asText().contains("city rate"), visible.toString());
            assertEquals(-32002, rpc(reader, "resources/read", Map.of("uri", "corpora://documents/memo")).get("error").get("code").asInt());
            assertTrue(rpc(reader, "resources/read", Map.of("uri", "corpora://documents/policy")).get("result").toString().contains("city rate"));
            JsonNode unknown = rpc(reader, "tools/call", Map.of("name", "drop_tables", "arguments", Map.of()));
            assertEquals(-32602, unknown.get("error").get("code").asInt());
            JsonNode extra = tool(reader, "search", Map.of("query", "x", "tenant", "someone-else"));
            assertTrue(extra.get("isError").asBoolean(), "no argument may name a tenant: " + extra);
            assertEquals(401, client.post("mcp", null, Map.of("jsonrpc", "2.0", "id", 1, "method", "ping")).status());
            // A client that names no protocol version is offered the newest (it was an internal error).
            assertEquals(McpResource.VERSIONS.get(0), rpc(reader, "initialize", Map.of()).get("result").get("protocolVersion").asText());
            assertEquals("2025-03-26", rpc(reader, "initialize", Map.of("protocolVersion", "2025-03-26")).get("result").get("protocolVersion").asText());
            ServerClient.Response arrayId = client.post("mcp", reader, Map.of("jsonrpc", "2.0", "id", List.of(1), "method", "ping"));
            JsonNode refused = JSON.readTree(arrayId.body());
            assertEquals(-32600, refused.get("error").get("code").asInt(), arrayId.body());
            assertTrue(refused.get("id").isNull(), "an id that is neither a string nor a number is not echoed: " + arrayId.body());
        }
    }

    /** A tenant whose store will not open: its MCP calls say so (503, the plugin named) without the operator's host. */
    @Test
    void aTenantWhosePluginWillNotStartIsA503ThatNamesNoHost() throws Exception {
        String tenant = "mcpdown-" + UUID.randomUUID().toString().substring(0, 8);
        ServerClient.Response created = client.post("admin/v1/tenants", admin, TenantFixtures.withUnopenableStore(tenant));
        assertEquals(201, created.status(), created.body());
        String reader = client.token("r", tenant, Roles.READER);
        JsonNode reply = rpc(reader, "tools/call", Map.of("name", "search", "arguments", Map.of("query", "tides")));
        String said = reply.has("error") ? reply.get("error").get("message").asText()
                : reply.get("result").get("content").get(0).get("text").asText();
        assertTrue(reply.has("error") || reply.get("result").get("isError").asBoolean(), reply.toString());
        assertTrue(said.contains("(503)") && said.contains("vector-store plugin 'pgvector'"), said);
        assertFalse(said.contains("127.0.0.1") || said.contains("nowhere"), "no host of the operator's: " + said);
    }

    // ---- fixtures

    private String tenant(String prefix, Map<String, String> documents, Map<String, Object> generator) {
        String id = prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", Map.of("provider", "onnx"));
        definition.put("access", Map.of("partitions", List.of(), "filterHook", Map.of("provider", "audience", "config",
                Map.of("key", "audience", "templates", List.of("public", "group:{groups}")))));
        if (generator != null) {
            definition.put("generator", generator);
        }
        ServerClient.Response created = client.post("admin/v1/tenants", admin, definition);
        assertTrue(created.status() == 201 || created.status() == 200, created.body());
        String writer = client.token("w", id, Roles.WRITER);
        documents.forEach((doc, text) -> post(id, writer, doc, text, "public"));
        return id;
    }

    private void post(String tenant, String writer, String id, String text, String audience) {
        ServerClient.Response stored = client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", id, "text", text, "metadata", Map.of("audience", audience)));
        assertEquals(201, stored.status(), stored.body());
    }

    private JsonNode rpc(String token, String method, Map<String, Object> params) throws IOException {
        ServerClient.Response response = client.post("mcp", token, Map.of("jsonrpc", "2.0", "id", 7, "method", method, "params", params));
        assertEquals(200, response.status(), response.body());
        return JSON.readTree(response.body());
    }

    private JsonNode tool(String token, String name, Map<String, Object> arguments) throws IOException {
        return rpc(token, "tools/call", Map.of("name", name, "arguments", arguments)).get("result");
    }

    private static List<String> documentIds(JsonNode toolResult) throws IOException {
        JsonNode structured = toolResult.get("structuredContent");
        List<String> ids = new ArrayList<>();
        structured.get("passages").forEach(p -> ids.add(p.get("citation").get("documentId").asText()));
        return ids;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.asText()));
        return out;
    }

    private static List<String> strings(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(v -> out.add(v.get(field).asText()));
        return out;
    }

    /** Runs the TypeScript client (installing its locked dependencies first when they are missing). */
    private List<JsonNode> runClient(String query, String... tokens) throws Exception {
        if (!Files.isDirectory(CLIENT.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            assertEquals(0, run(List.of("npm", "ci", "--no-audit", "--no-fund")).exit(), "npm ci in " + CLIENT);
        }
        List<String> command = new ArrayList<>(List.of("node", "client.mjs", client.resolve("mcp").toString(), query));
        command.addAll(List.of(tokens));
        Result result = run(command);
        assertEquals(0, result.exit(), result.output());
        List<JsonNode> sessions = new ArrayList<>();
        for (String line : result.output().split("\n")) {
            if (line.startsWith("{")) {
                sessions.add(JSON.readTree(line));
            }
        }
        return sessions;
    }

    private record Result(int exit, String output) {}

    private static Result run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).directory(CLIENT.toFile()).redirectErrorStream(true).start();
        process.getOutputStream().close();
        byte[] output = process.getInputStream().readAllBytes();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("timed out: " + command);
        }
        return new Result(process.exitValue(), new String(output, StandardCharsets.UTF_8));
    }
}
