package io.corpora.server.rest;

import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.IOException;

/**
 * A request body the JSON reader cannot read — malformed, or of the wrong shape for the route ({@code "topK": "ten"}) —
 * is the caller's 400 {@code invalid-json}: without this the reader's exception leaves as a 500. Only reading is
 * intercepted, so a failure to write a response stays the server's.
 */
@Provider
public class UnreadableJsonBodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        try {
            return context.proceed();
        } catch (JsonbException | JsonException e) {
            String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            throw new ProblemException(400, "invalid-json", "Invalid request", "the request body cannot be read as this route's JSON: "
                    + (message.length() > 300 ? message.substring(0, 300) + "…" : message));
        }
    }
}
