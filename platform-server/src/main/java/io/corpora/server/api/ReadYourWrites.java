package io.corpora.server.api;

import io.corpora.access.TenantView;
import jakarta.ws.rs.core.Response;

/**
 * Read-your-writes over HTTP: a write the server acknowledges answers the store's consistency token in the
 * {@value #HEADER} header; a retrieve that sends it back sees that write, even when its store serves searches from
 * lagging replicas. Opaque to callers; absent when the tenant's store has no replicas (every read is consistent).
 */
public final class ReadYourWrites {

    public static final String HEADER = "Corpora-Consistency";

    private ReadYourWrites() {}

    /** Adds the view's current token, if its store issues one, to an acknowledgement of writes that have returned. */
    static Response.ResponseBuilder withToken(Response.ResponseBuilder response, TenantView view) {
        view.consistencyToken().ifPresent(token -> response.header(HEADER, token));
        return response;
    }
}
