package io.corpora.generate.openai;

import io.corpora.testkit.ChatCompletionsStandIn;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.streamOf;
import static io.corpora.generate.openai.TestGenerators.API_KEY;
import static io.corpora.generate.openai.TestGenerators.HANG_SECONDS;
import static io.corpora.generate.openai.TestGenerators.QUESTION;
import static io.corpora.generate.openai.TestGenerators.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.FinishReason;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.TokenUsage;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The wire format: what is sent, and how plain and streamed answers are read. */
class ChatCompletionsTest extends StandInTest {


    @Test
    void aPlainCompletionSendsTheChatAndReadsTextModelUsageAndFinishReason() {
        standIn.answer(completion("Guests may lodge for 3 nights [1].", "stand-in-model-2024-07-18", 42, 9));
        try (Generator generator = TestGenerators.of(standIn, Map.of("maxTokens", "256", "temperature", "0.2"))) {
            assertEquals("stand-in-model", generator.modelId());
            Generation generation = generator.generate(QUESTION.withTemperature(0.7).withStop(List.of("\n\nQ:")));

            assertEquals("Guests may lodge for 3 nights [1].", generation.text());
            assertEquals("stand-in-model-2024-07-18", generation.model(), "the model the backend names");
            assertEquals(new TokenUsage(42, 9, 51), generation.usage());
            assertEquals(FinishReason.STOP, generation.finishReason());
        }
        ChatCompletionsStandIn.Received request = standIn.only();
        assertEquals("/v1/chat/completions", request.path());
        assertEquals("application/json", request.header("Accept"));
        assertEquals("application/json", request.header("Content-Type"));
        JsonNode body = request.body();
        assertEquals("stand-in-model", body.path("model").asText());
        assertEquals("system", body.path("messages").get(0).path("role").asText());
        assertEquals("Answer from the context.", body.path("messages").get(0).path("content").asText());
        assertEquals("user", body.path("messages").get(1).path("role").asText());
        assertEquals(256, body.path("max_tokens").asInt(), "the configured default");
        assertEquals(0.7, body.path("temperature").asDouble(), "the request's value wins over the default");
        assertEquals("\n\nQ:", body.path("stop").get(0).asText());
        assertFalse(body.path("stream").asBoolean(true));
        assertTrue(body.path("stream_options").isMissingNode());
    }

    @Test
    void unsetParametersAreLeftToTheBackendAndTheLimitFieldIsConfigurable() {
        standIn.answer(completion("ok", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            generator.generate(QUESTION);
        }
        JsonNode body = standIn.requests.get(0).body();
        assertTrue(body.path("max_tokens").isMissingNode());
        assertTrue(body.path("temperature").isMissingNode());
        assertTrue(body.path("stop").isMissingNode());

        try (Generator generator = TestGenerators.of(standIn, Map.of("maxTokensField", "max_completion_tokens"))) {
            generator.generate(QUESTION.withMaxTokens(64));
        }
        body = standIn.requests.get(1).body();
        assertEquals(64, body.path("max_completion_tokens").asInt());
        assertTrue(body.path("max_tokens").isMissingNode());
    }

    @Test
    void aStreamDeliversDeltasInOrderAsTheyArriveAndUsageFromTheFinalChunk() throws Exception {
        CountDownLatch firstDeltaSeen = new CountDownLatch(1);
        String[] payloads = streamOf(List.of("Guests ", "may lodge", " for 3 nights."), 42);
        standIn.answer((exchange, request) -> {
            try (OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                ChatCompletionsStandIn.writeEvent(out, payloads[0]);
                ChatCompletionsStandIn.writeEvent(out, payloads[1]);
                // The rest only once the client has the first delta: it must arrive before the stream ends.
                if (!firstDeltaSeen.await(HANG_SECONDS, TimeUnit.SECONDS)) {
                    return;
                }
                for (String payload : Arrays.copyOfRange(payloads, 2, payloads.length)) {
                    ChatCompletionsStandIn.writeEvent(out, payload);
                }
                ChatCompletionsStandIn.writeEvent(out, "[DONE]");
            }
        });
        List<String> deltas = new CopyOnWriteArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertTrue(generator.streamsDeltas());
            GenerationStream stream = generator.stream(QUESTION, delta -> {
                deltas.add(delta);
                firstDeltaSeen.countDown();
            });
            Generation generation = await(stream);

            assertEquals(List.of("Guests ", "may lodge", " for 3 nights."), deltas);
            assertEquals("Guests may lodge for 3 nights.", generation.text());
            assertEquals(new TokenUsage(42, 3, 45), generation.usage());
            assertEquals(FinishReason.STOP, generation.finishReason());
            assertEquals("stand-in-model-2024", generation.model());
        }
        ChatCompletionsStandIn.Received request = standIn.only();
        assertEquals("text/event-stream", request.header("Accept"));
        assertTrue(request.body().path("stream").asBoolean());
        assertTrue(request.body().path("stream_options").path("include_usage").asBoolean());
    }

    @Test
    void withoutStreamUsageNoStreamOptionsAreSentAndUsageStaysUnknown() throws Exception {
        standIn.answer(events(ChatCompletionsStandIn.delta("hi"), ChatCompletionsStandIn.finishChunk("length")));
        try (Generator generator = TestGenerators.of(standIn, Map.of("streamUsage", "false"))) {
            Generation generation = await(generator.stream(QUESTION, delta -> {}));
            assertEquals("hi", generation.text());
            assertFalse(generation.usage().isKnown());
            assertTrue(generation.truncated(), "finish_reason length");
        }
        assertTrue(standIn.only().body().path("stream_options").isMissingNode());
    }

    @Test
    void sseFramingVariantsAreRead() throws Exception {
        // Comments (keep-alives), an unnamed-space 'data:' field, CRLF endings, other fields, and a body that ends
        // after its finish chunk without [DONE] (as some servers do).
        standIn.answer((exchange, request) -> {
            try (OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                ChatCompletionsStandIn.write(out, ": keep-alive\r\n\r\n");
                ChatCompletionsStandIn.write(out, "event: message\r\nid: 1\r\ndata:" + ChatCompletionsStandIn.delta("one") + "\r\n\r\n");
                ChatCompletionsStandIn.write(out, "data: " + ChatCompletionsStandIn.delta(" two") + "\n\n");
                ChatCompletionsStandIn.write(out, "data: " + ChatCompletionsStandIn.finishChunk("stop") + "\n\n");
            }
        });
        List<String> deltas = new ArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertEquals("one two", await(generator.stream(QUESTION, deltas::add)).text());
        }
        assertEquals(List.of("one", " two"), deltas);
    }

    @Test
    void aBackendThatIgnoresStreamingAndAnswersInOnePieceStillStreams() throws Exception {
        standIn.answer(completion("whole answer", "m", 5, 2));
        List<String> deltas = new ArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            Generation generation = await(generator.stream(QUESTION, deltas::add));
            assertEquals("whole answer", generation.text());
            assertEquals(7, generation.usage().totalTokens());
        }
        assertEquals(List.of("whole answer"), deltas);
    }

    @Test
    void openAiShapeSendsBearerOrganizationAndExtraHeaders() {
        standIn.answer(completion("ok", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of("organization", "org-acme",
                "headers", "X-Gateway-Route: eu-1, X-Trace: on"))) {
            generator.generate(QUESTION);
        }
        ChatCompletionsStandIn.Received request = standIn.only();
        assertEquals("Bearer " + API_KEY, request.header("Authorization"));
        assertEquals("org-acme", request.header("OpenAI-Organization"));
        assertEquals("eu-1", request.header("X-Gateway-Route"));
        assertEquals("on", request.header("X-Trace"));
        assertNull(request.header("api-key"));
        assertNull(request.query());
    }

    @Test
    void withoutAKeyNoCredentialHeaderIsSent() {
        standIn.answer(completion("ok", "m", 1, 1));
        try (Generator generator = TestGenerators.create(Map.of("baseUrl", standIn.baseUrl() + "/", "model", "llama3.1"))) {
            generator.generate(QUESTION);
        }
        ChatCompletionsStandIn.Received request = standIn.only();
        assertEquals("/v1/chat/completions", request.path(), "a trailing slash of baseUrl is not doubled");
        assertNull(request.header("Authorization"));
        assertNull(request.header("api-key"));
    }

    @Test
    void azureShapeUsesTheDeploymentPathApiVersionAndApiKeyHeader() throws Exception {
        standIn.answer(events(streamOf(List.of("azure ", "answer"), 7)));
        try (Generator generator = TestGenerators.create(Map.of("apiType", "azure", "baseUrl", standIn.root().toString(),
                "model", "gpt-4o-mini", "deployment", "corpora-gpt4o", "apiVersion", "2024-10-21", "apiKey", API_KEY))) {
            assertEquals("gpt-4o-mini", generator.modelId());
            assertEquals("azure answer", await(generator.stream(QUESTION, delta -> {})).text());
        }
        ChatCompletionsStandIn.Received request = standIn.only();
        assertEquals("/openai/deployments/corpora-gpt4o/chat/completions", request.path());
        assertEquals("api-version=2024-10-21", request.query());
        assertEquals(API_KEY, request.header("api-key"));
        assertNull(request.header("Authorization"), "Azure keys go in api-key, not a bearer token");
    }

    @Test
    void azureDeploymentDefaultsToTheModel() {
        standIn.answer(completion("ok", "gpt-4o-mini", 1, 1));
        try (Generator generator = TestGenerators.create(Map.of("apiType", "azure", "baseUrl", standIn.root().toString(),
                "model", "gpt-4o-mini", "apiVersion", "2024-10-21"))) {
            generator.generate(QUESTION);
        }
        assertEquals("/openai/deployments/gpt-4o-mini/chat/completions", standIn.only().path());
    }

    @Test
    void oneInstanceServesConcurrentStreamsEachWithItsOwnDeltas() throws Exception {
        // The stand-in echoes the user's message back word by word, so every stream's deltas are its own.
        standIn.answer((exchange, request) -> {
            String question = request.body().path("messages").get(0).path("content").asText();
            ChatCompletionsStandIn.events(streamOf(Arrays.stream(question.split("(?<= )")).toList(), 3)).respond(exchange, request);
        });
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            List<GenerationStream> streams = new ArrayList<>();
            List<List<String>> deltas = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                List<String> own = new CopyOnWriteArrayList<>();
                deltas.add(own);
                streams.add(generator.stream(GenerationRequest.of(ChatMessage.user("stream " + i + " says hello")), own::add));
            }
            for (int i = 0; i < 16; i++) {
                assertEquals("stream " + i + " says hello", await(streams.get(i)).text());
                assertEquals(List.of("stream ", i + " ", "says ", "hello"), deltas.get(i));
            }
        }
        assertEquals(16, standIn.requests.size());
    }
}
