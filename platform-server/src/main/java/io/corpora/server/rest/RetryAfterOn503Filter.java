package io.corpora.server.rest;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;

/**
 * Every 503 tells the client when to come back: answers that carry no {@code Retry-After} of their own (e.g. an ingest
 * whose store was unavailable, reported through the job outcome) get a small default.
 */
@Provider
public class RetryAfterOn503Filter implements ContainerResponseFilter {

    static final String DEFAULT_SECONDS = "2";

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (response.getStatus() == 503 && !response.getHeaders().containsKey("Retry-After")) {
            response.getHeaders().putSingle("Retry-After", DEFAULT_SECONDS);
        }
    }
}
