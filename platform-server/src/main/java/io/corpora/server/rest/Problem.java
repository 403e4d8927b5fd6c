package io.corpora.server.rest;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An RFC 9457 problem detail. Every error leaving the server is one of these, as {@code application/problem+json};
 * {@code type} is a stable URI per kind of problem, documented in the API reference.
 */
public final class Problem {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://corpora.dev/problems/";

    private Problem() {}

    /** The stable URI of a kind of problem, e.g. {@code concurrent-write}. */
    public static String type(String kind) {
        return URI.create(TYPE_BASE + kind).toString();
    }

    public static Response response(int status, String type, String title, String detail) {
        return response(status, type, title, detail, Map.of());
    }

    public static Response response(int status, String type, String title, String detail, Map<String, ?> extensions) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type(type));
        body.put("title", title);
        body.put("status", status);
        if (detail != null) {
            body.put("detail", detail);
        }
        body.putAll(extensions);
        return Response.status(status).type(MediaType.valueOf(MEDIA_TYPE)).entity(body).build();
    }
}
