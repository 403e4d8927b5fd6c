package io.corpora.generate.openai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.FinishReason;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.TokenUsage;
import java.util.Locale;

/**
 * The chat-completions JSON: the request body, the plain response ({@code choices[0].message.content}) and the
 * streamed chunks ({@code choices[0].delta.content}, a final chunk with {@code usage}). What the protocol requires
 * and is missing or mistyped is a {@link MalformedResponseException}; what is optional (usage, finish reason, model
 * name) is read when well-formed and ignored otherwise, so a gateway's odd usage block never costs an answer.
 * Thread-safe.
 */
final class ChatCompletionsJson {

    /** Request parameters that are the same for every call of one generator. */
    record Defaults(String model, Integer maxTokens, String maxTokensField, Double temperature, boolean streamUsage) {}

    /**
     * One streamed chunk.
     *
     * @param content the text delta, null when the chunk has none (a role-only, usage-only or filter chunk)
     * @param error   the backend's error message when the chunk is an error event rather than a completion chunk
     */
    record Chunk(String content, FinishReason finishReason, TokenUsage usage, String model, String error) {}

    private static final int EXCERPT = 200;

    private final ObjectMapper json = new ObjectMapper();

    byte[] requestBody(Defaults defaults, GenerationRequest request, boolean stream) {
        ObjectNode body = json.createObjectNode().put("model", defaults.model());
        ArrayNode messages = body.putArray("messages");
        for (ChatMessage message : request.messages()) {
            messages.addObject().put("role", message.role().name().toLowerCase(Locale.ROOT)).put("content", message.content());
        }
        Integer maxTokens = request.maxTokens() != null ? request.maxTokens() : defaults.maxTokens();
        if (maxTokens != null) {
            body.put(defaults.maxTokensField(), maxTokens);
        }
        Double temperature = request.temperature() != null ? request.temperature() : defaults.temperature();
        if (temperature != null) {
            body.put("temperature", temperature);
        }
        if (!request.stop().isEmpty()) {
            request.stop().forEach(body.putArray("stop")::add);
        }
        body.put("stream", stream);
        if (stream && defaults.streamUsage()) {
            body.putObject("stream_options").put("include_usage", true);
        }
        try {
            return json.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("could not encode a chat-completions request", e);
        }
    }

    /** A plain (non-streamed) response body. */
    Generation completion(String body, String fallbackModel, String describe) {
        JsonNode root = parse(body, describe + " answered");
        JsonNode choices = root.path("choices");
        if (!choices.isArray() || choices.isEmpty()) {
            throw new MalformedResponseException(describe + " answered without 'choices': " + excerpt(body));
        }
        JsonNode choice = choices.get(0);
        JsonNode message = choice.path("message");
        if (!message.isObject()) {
            throw new MalformedResponseException(describe + " answered without 'choices[0].message': " + excerpt(body));
        }
        String text = text(message.path("content"), describe + " answered a non-text 'choices[0].message.content'", body);
        return new Generation(text == null ? "" : text, model(root, fallbackModel), usage(root.path("usage")),
                finishReason(choice.path("finish_reason")));
    }

    /** The data of one stream event (not {@code [DONE]}); {@code number} counts events from 1, for messages. */
    Chunk chunk(String data, int number, String describe) {
        String where = describe + " sent stream chunk " + number;
        JsonNode root = parse(data, where);
        JsonNode error = root.path("error");
        if (!error.isMissingNode() && !error.isNull()) {
            return new Chunk(null, null, TokenUsage.UNKNOWN, null, errorText(error));
        }
        JsonNode choices = root.path("choices");
        JsonNode usage = root.path("usage");
        if (!choices.isArray() && !usage.isObject()) {
            throw new MalformedResponseException(where + " without 'choices': " + excerpt(data));
        }
        String content = null;
        FinishReason finish = null;
        if (choices.isArray() && !choices.isEmpty()) {
            JsonNode choice = choices.get(0);
            content = text(choice.path("delta").path("content"), where + " with a non-text 'choices[0].delta.content'", data);
            finish = finishReason(choice.path("finish_reason"));
        }
        String model = root.path("model").isTextual() && !root.path("model").asText().isBlank() ? root.path("model").asText() : null;
        return new Chunk(content, finish, usage(usage), model, null);
    }

    /** The message of an error body ({@code {"error": {"message": …}}}, or {@code {"error": "…"}}), if it has one. */
    String errorMessage(String body) {
        try {
            JsonNode error = json.readTree(body).path("error");
            return error.isMissingNode() || error.isNull() ? null : errorText(error);
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }

    static String excerpt(String text) {
        String stripped = text.strip();
        if (stripped.isEmpty()) {
            return "(empty)";
        }
        return stripped.length() > EXCERPT ? stripped.substring(0, EXCERPT) + "…" : stripped;
    }

    private JsonNode parse(String text, String where) {
        JsonNode root;
        try {
            root = json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new MalformedResponseException(where + " something that is not JSON: " + excerpt(text), e);
        }
        if (root == null || !root.isObject()) {
            throw new MalformedResponseException(where + " JSON that is not an object: " + excerpt(text));
        }
        return root;
    }

    private static String text(JsonNode node, String problem, String source) {
        if (node.isMissingNode() || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new MalformedResponseException(problem + ": " + excerpt(source));
        }
        return node.asText();
    }

    private static String errorText(JsonNode error) {
        if (error.isTextual()) {
            return error.asText();
        }
        JsonNode message = error.path("message");
        return message.isTextual() ? message.asText() : error.toString();
    }

    private static String model(JsonNode root, String fallback) {
        JsonNode model = root.path("model");
        return model.isTextual() && !model.asText().isBlank() ? model.asText() : fallback;
    }

    private static TokenUsage usage(JsonNode usage) {
        if (!usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        return new TokenUsage(count(usage.path("prompt_tokens")), count(usage.path("completion_tokens")),
                count(usage.path("total_tokens")));
    }

    private static Integer count(JsonNode node) {
        return node.canConvertToInt() && node.isIntegralNumber() && node.intValue() >= 0 ? node.intValue() : null;
    }

    static FinishReason finishReason(JsonNode node) {
        if (!node.isTextual()) {
            return null;
        }
        return switch (node.asText()) {
            case "stop" -> FinishReason.STOP;
            case "length" -> FinishReason.LENGTH;
            case "content_filter" -> FinishReason.CONTENT_FILTER;
            default -> FinishReason.OTHER;
        };
    }
}
