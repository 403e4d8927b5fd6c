package io.corpora.server.api;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.streamOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.testkit.ChatCompletionsStandIn;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code POST ask} on the real server: the tenant's generator is the {@code generator-openai} plugin pointed at the
 * chat-completions stand-in this test starts (no model can run here), so what the stand-in received is the prompt.
 * The tenant has the audience hook: a passage the reader may not see must never reach it.
 */
class AskIT extends DeployedServer {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String VISIBLE = "Hotel stays are reimbursed up to the city rate of 180 euros a night.";
    private static final String HIDDEN = "Hotel stays of executives are reimbursed at cost without any cap, says the board memo.";

    private final ServerClient client = ServerClient.fromBuild();
    private ChatCompletionsStandIn standIn;
    private String tenant;
    private String reader;

    @BeforeEach
    void tenantWithAGenerator() throws Exception {
        standIn = new ChatCompletionsStandIn();
        tenant = TenantFixtures.uniqueId("ask");
        Map<String, Object> definition = TenantFixtures.embeddedDefaults(tenant);
        definition.put("access", Map.of("partitions", List.of(), "filterHook", Map.of("provider", "audience", "config",
                Map.of("key", "audience", "templates", List.of("public", "group:{groups}")))));
        definition.put("generator", Map.of("provider", "openai", "config", Map.of("baseUrl", standIn.baseUrl(), "model", "stand-in-model",
                "maxRetries", 0)));
        new TenantFixtures(client).create(definition);
        String writer = client.token("w", tenant, List.of(Roles.WRITER), Map.of("acl_groups", List.of("legal", "board")));
        assertEquals(201, client.post(base() + "/documents", writer, Map.of("id", "policy", "text", VISIBLE,
                "metadata", Map.of("audience", "group:legal"))).status());
        assertEquals(201, client.post(base() + "/documents", writer, Map.of("id", "memo", "text", HIDDEN,
                "metadata", Map.of("audience", "group:board"))).status());
        reader = client.token("rita", tenant, List.of(Roles.READER), Map.of("acl_groups", List.of("legal")));
    }

    @AfterEach
    void stop() {
        standIn.close();
    }

    @Test
    void answersFromVisiblePassagesOnlyAndStripsInventedCitations() throws Exception {
        standIn.answer(completion("Up to 180 euros a night [1]; executives at cost [2][9].", "stand-in-model-1", 70, 14));

        ServerClient.Response answered = client.post(base() + "/ask", reader, Map.of("question", "How are hotel stays reimbursed?"));

        assertEquals(200, answered.status(), answered.body());
        JsonNode body = answered.json();
        String prompt = prompt(standIn.only().body());
        assertTrue(prompt.contains(VISIBLE), prompt);
        assertFalse(prompt.contains("executives"), "a passage the reader may not see reached the prompt: " + prompt);
        assertEquals("Up to 180 euros a night [1]; executives at cost .", body.get("answer").asText());
        assertEquals(1, body.get("citations").size());
        assertEquals("policy", body.get("citations").get(0).get("documentId").asText());
        assertEquals(1, body.get("citations").get(0).get("n").asInt());
        assertEquals(VISIBLE, body.get("citations").get(0).get("text").asText());
        assertEquals(84, body.get("usage").get("totalTokens").asInt());
        assertEquals(2, body.get("diagnostics").get("removedCitations").asInt());
        assertEquals("stand-in-model-1", body.get("diagnostics").get("model").asText());
    }

    @Test
    void streamsRetrievalDeltasAndAFinalEvent() throws Exception {
        standIn.answer(events(streamOf(List.of("Up to 180 ", "euros [", "1] [", "3]."), 30)));

        ServerClient.Response streamed = client.post(base() + "/ask", reader, Map.of("question", "How are hotel stays reimbursed?",
                "stream", true), Map.of("Accept", "text/event-stream"));

        assertEquals(200, streamed.status(), streamed.body());
        assertTrue(streamed.contentType().startsWith("text/event-stream"), streamed.contentType());
        List<Map.Entry<String, JsonNode>> events = parse(streamed.body());
        assertEquals("retrieval", events.get(0).getKey());
        assertEquals(List.of("policy"), ids(events.get(0).getValue().get("context")));
        StringBuilder deltas = new StringBuilder();
        events.stream().filter(e -> e.getKey().equals("delta")).forEach(e -> deltas.append(e.getValue().get("text").asText()));
        assertEquals("Up to 180 euros [1] .", deltas.toString());
        Map.Entry<String, JsonNode> done = events.get(events.size() - 1);
        assertEquals("done", done.getKey());
        assertEquals(deltas.toString(), done.getValue().get("answer").asText());
        assertEquals(1, done.getValue().get("diagnostics").get("removedCitations").asInt());
        assertEquals(30 + 4, done.getValue().get("usage").get("totalTokens").asInt());
        assertTrue(standIn.only().body().path("stream").asBoolean());
        assertFalse(prompt(standIn.only().body()).contains("executives"));
    }

    @Test
    void aClientThatHangsUpCancelsTheModelCall() throws Exception {
        java.util.concurrent.CompletableFuture<Integer> backendClosed = new java.util.concurrent.CompletableFuture<>();
        standIn.answer((exchange, request) -> { // a slow model: a delta every 200 ms, until someone stops listening
            int written = 0;
            try (java.io.OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                ChatCompletionsStandIn.writeEvent(out, ChatCompletionsStandIn.roleChunk());
                for (; written < 300; written++) {
                    ChatCompletionsStandIn.writeEvent(out, ChatCompletionsStandIn.delta("word" + written + " "));
                    Thread.sleep(200);
                }
                ChatCompletionsStandIn.writeEvent(out, "[DONE]");
            } catch (java.io.IOException e) {
                backendClosed.complete(written);
            }
        });
        java.net.http.HttpRequest ask = java.net.http.HttpRequest.newBuilder(client.resolve(base() + "/ask"))
                .header("Authorization", "Bearer " + reader).header("Content-Type", "application/json")
                .header("Accept", "text/event-stream")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("question",
                        "How are hotel stays reimbursed?", "stream", true)))).build();
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.http.HttpResponse<java.io.InputStream> response = http.send(ask, java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        try (java.io.BufferedReader lines = new java.io.BufferedReader(new java.io.InputStreamReader(response.body(),
                java.nio.charset.StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null && !line.equals("event: delta")) {
                // read up to the first delta: the model call is under way
            }
        }
        // hung up: the server's next write fails, it cancels the stream, and the plugin closes the backend connection
        int written = backendClosed.get(60, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(written < 300, "the model was read to the end: " + written);
    }

    @Test
    void noVisiblePassageIsANoSourceAnswerWithoutAModelCall() throws Exception {
        standIn.answer(completion("never", "m", 1, 1));
        String outsider = client.token("olga", tenant, List.of(Roles.READER), Map.of("acl_groups", List.of("sales")));

        ServerClient.Response answered = client.post(base() + "/ask", outsider, Map.of("question", "How are hotel stays reimbursed?"));

        assertEquals(200, answered.status(), answered.body());
        assertTrue(answered.json().get("diagnostics").get("noSource").asBoolean(), answered.body());
        assertEquals(0, answered.json().get("citations").size());
        assertEquals(0, standIn.requests.size(), "the model was called");
    }

    @Test
    void withoutAGeneratorAskIs501AndRetrieveIsUnaffected() {
        String plain = TenantFixtures.uniqueId("noask");
        new TenantFixtures(client).create(plain, List.of(), false);
        String token = client.token("r", plain, Roles.READER);

        ServerClient.Response refused = client.post("api/v1/tenants/" + plain + "/ask", token, Map.of("question", "anything"));
        assertEquals(501, refused.status(), refused.body());
        assertTrue(refused.contentType().startsWith("application/problem+json"), refused.contentType());
        assertTrue(refused.json().get("detail").asText().contains("\"generator\""), refused.body());
        assertEquals(200, client.post("api/v1/tenants/" + plain + "/retrieve", token, Map.of("query", "anything")).status());
        assertEquals(400, client.post(base() + "/ask", reader, Map.of("question", " ")).status());
        assertEquals(403, client.post("api/v1/tenants/" + plain + "/ask", reader, Map.of("question", "x")).status());
    }

    /**
     * A generator option the plugin itself refuses (its {@code validate}: a base URL that is not http) is a 400 at its
     * field when the tenant is defined, and nothing is stored — not a tenant whose every ask would fail.
     */
    @Test
    void aGeneratorThePluginRefusesIsA400WhenTheTenantIsDefined() {
        String refused = TenantFixtures.uniqueId("badgen");
        Map<String, Object> definition = TenantFixtures.embeddedDefaults(refused);
        definition.put("generator", Map.of("provider", "openai", "config", Map.of("baseUrl", "ftp://models.example.invalid", "model", "m")));
        String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);
        ServerClient.Response created = client.post("admin/v1/tenants", admin, definition);
        assertEquals(400, created.status(), created.body());
        assertEquals("/generator/config", created.json().at("/errors/0/pointer").asText(), created.body());
        assertTrue(created.json().at("/errors/0/reason").asText().contains("must be an http or https URL"), created.body());
        assertEquals(404, client.get("admin/v1/tenants/" + refused, admin).status());
    }

    private String base() {
        return "api/v1/tenants/" + tenant;
    }

    private static String prompt(JsonNode body) {
        StringBuilder all = new StringBuilder();
        body.path("messages").forEach(m -> all.append(m.path("content").asText()).append('\n'));
        return all.toString();
    }

    private static List<String> ids(JsonNode citations) {
        List<String> ids = new ArrayList<>();
        citations.forEach(c -> ids.add(c.get("documentId").asText()));
        return ids;
    }

    /** Server-sent events as (event, JSON data) in order. */
    static List<Map.Entry<String, JsonNode>> parse(String body) throws Exception {
        List<Map.Entry<String, JsonNode>> events = new ArrayList<>();
        for (String frame : body.split("\n\n")) {
            String event = "message";
            StringBuilder data = new StringBuilder();
            for (String line : frame.split("\n")) {
                if (line.startsWith("event: ")) {
                    event = line.substring(7);
                } else if (line.startsWith("data: ")) {
                    data.append(line.substring(6));
                }
            }
            if (data.length() > 0) {
                events.add(Map.entry(event, JSON.readTree(data.toString())));
            }
        }
        return events;
    }
}
