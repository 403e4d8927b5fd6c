package io.corpora.server.rest;

import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Providers;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The problem+json body a route would answer for an exception, decided by the same exception mappers, for answers that
 * cannot be an HTTP status any more: an error event in a stream already under way, an MCP tool error.
 */
public final class ProblemBodies {

    private ProblemBodies() {}

    @SuppressWarnings({"unchecked", "rawtypes"})
    public static Map<String, Object> of(Providers providers, RuntimeException e) {
        ExceptionMapper mapper = providers == null ? null : providers.getExceptionMapper(e.getClass());
        Object entity = mapper == null ? null : mapper.toResponse(e).getEntity();
        if (entity instanceof Map<?, ?> map) {
            return new LinkedHashMap<>((Map<String, Object>) map);
        }
        return new LinkedHashMap<>(Map.of("title", "Internal error", "status", 500));
    }
}
