package io.corpora.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpHeaders;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** Decodes an error answer into a {@link CorporaProblemException}: the RFC 9457 body when there is one, the status otherwise. */
final class Problems {

    private static final Set<String> STANDARD = Set.of("type", "title", "status", "detail", "instance", "requestId");

    private Problems() {}

    static CorporaProblemException decode(ObjectMapper json, HttpResponse<byte[]> response) {
        return decode(json, response.statusCode(), response.headers(), response.body());
    }

    static CorporaProblemException decode(ObjectMapper json, int status, HttpHeaders headers, byte[] content) {
        String requestId = headers.firstValue("X-Request-Id").orElse(null);
        Duration retryAfter = headers.firstValue("Retry-After").map(Problems::retryAfter).orElse(null);
        JsonNode body = null;
        try {
            body = content.length == 0 ? null : json.readTree(content);
        } catch (IOException e) {
            // not JSON (e.g. a proxy's HTML error page): the status says what we know
        }
        if (body == null || !body.isObject()) {
            // MP-JWT answers 401 before the application, with an empty body and a Bearer challenge.
            String challenge = headers.firstValue("WWW-Authenticate").orElse(null);
            return new CorporaProblemException(null, status, "HTTP " + status, challenge, requestId, retryAfter, Map.of());
        }
        return decode(json, body, status, requestId, retryAfter);
    }

    /**
     * A problem+json body, e.g. the data of a streamed answer's {@code error} event; {@code status}, {@code requestId}
     * and {@code retryAfter} stand in for members the body lacks (an event has no headers: the server sends its
     * Retry-After as the member {@code retryAfter}, in seconds).
     */
    static CorporaProblemException decode(ObjectMapper json, JsonNode body, int status, String requestId, Duration retryAfter) {
        if (retryAfter == null && body.path("retryAfter").canConvertToLong()) {
            retryAfter = Duration.ofSeconds(Math.max(0, body.get("retryAfter").asLong()));
        }
        Map<String, Object> extensions = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> fields = body.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!STANDARD.contains(field.getKey())) {
                extensions.put(field.getKey(), json.convertValue(field.getValue(), Object.class));
            }
        }
        URI type = body.hasNonNull("type") ? URI.create(body.get("type").asText()) : null;
        return new CorporaProblemException(type, body.path("status").asInt(status), body.path("title").asText("HTTP " + status),
                body.hasNonNull("detail") ? body.get("detail").asText() : null,
                body.hasNonNull("requestId") ? body.get("requestId").asText() : requestId, retryAfter, extensions);
    }

    /** Retry-After is delay-seconds or an HTTP-date (RFC 9110 §10.2.3); null when it is neither. */
    static Duration retryAfter(String value) {
        String v = value.trim();
        try {
            return Duration.ofSeconds(Math.max(0, Long.parseLong(v)));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration until = Duration.between(ZonedDateTime.now(), ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME));
                return until.isNegative() ? Duration.ZERO : until;
            } catch (DateTimeParseException notADate) {
                return null;
            }
        }
    }
}
