package io.corpora.server.rest;

import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gives every request an id ({@link RequestIds}): taken from {@code X-Request-Id} or generated, echoed in the response
 * header, added to problem+json bodies as {@code requestId}, and attached to the log records written meanwhile.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
public class RequestIdFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String PROPERTY = RequestIdFilter.class.getName();

    @Override
    public void filter(ContainerRequestContext request) {
        String id = RequestIds.accept(request.getHeaderString(RequestIds.HEADER));
        request.setProperty(PROPERTY, id);
        RequestIds.begin(id);
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object property = request.getProperty(PROPERTY);
        String id = property instanceof String s ? s : RequestIds.accept(null);
        response.getHeaders().putSingle(RequestIds.HEADER, id);
        if (response.getMediaType() != null && Problem.MEDIA_TYPE.equals(response.getMediaType().toString())
                && response.getEntity() instanceof Map<?, ?> body && !body.containsKey("requestId")) {
            Map<Object, Object> withId = new LinkedHashMap<>(body);
            withId.put("requestId", id);
            response.setEntity(withId, response.getEntityAnnotations(), response.getMediaType());
        }
        RequestIds.end();
    }
}
