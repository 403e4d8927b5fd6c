package io.corpora.server.rest;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Providers;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The problem+json body a route would answer for an exception, decided by the same exception mappers, for answers that
 * cannot be an HTTP status any more: an error event in a stream already under way, an MCP tool error. Such an answer has
 * no headers, so the {@code Retry-After} the route would send travels as the extension member {@code retryAfter}
 * (seconds; every 503 has one, {@link RetryAfterOn503Filter}).
 */
public final class ProblemBodies {

    private ProblemBodies() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<String, Object> of(Providers providers, RuntimeException e) {
        ExceptionMapper mapper = providers == null ? null : providers.getExceptionMapper(e.getClass());
        Response response = mapper == null ? null : mapper.toResponse(e);
        if (response != null && response.getEntity() instanceof Map<?, ?> map) {
            Map<String, Object> body = new LinkedHashMap<>((Map<String, Object>) map);
            String retryAfter = response.getHeaderString("Retry-After");
            if (retryAfter == null && response.getStatus() == 503) {
                retryAfter = RetryAfterOn503Filter.DEFAULT_SECONDS;
            }
            if (retryAfter != null && retryAfter.matches("\\d{1,9}")) {
                body.put("retryAfter", Long.parseLong(retryAfter));
            }
            return body;
        }
        return new LinkedHashMap<>(Map.of("title", "Internal error", "status", 500));
    }
}
