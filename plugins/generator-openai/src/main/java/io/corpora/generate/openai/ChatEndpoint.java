package io.corpora.generate.openai;

import java.net.URI;
import java.util.Map;

/**
 * Where chat completions are posted and the headers every request carries (credentials included), for one
 * configured generator. {@link #toString()} and {@link #described()} never show the query string or a header value.
 *
 * @param uri       the full {@code …/chat/completions} URL
 * @param headers   fixed request headers: authentication, organization, the operator's extra headers
 * @param described the URL without its query string, for messages
 */
record ChatEndpoint(URI uri, Map<String, String> headers, String described) {

    ChatEndpoint {
        headers = Map.copyOf(headers);
    }

    static ChatEndpoint of(URI uri, Map<String, String> headers) {
        String path = uri.getRawPath() == null ? "" : uri.getRawPath();
        return new ChatEndpoint(uri, headers, uri.getScheme() + "://" + uri.getRawAuthority() + path);
    }

    /** Plain http has no TLS to negotiate HTTP/2 with, and an h2c upgrade request confuses some local servers. */
    boolean plainHttp() {
        return "http".equalsIgnoreCase(uri.getScheme());
    }

    @Override
    public String toString() {
        return described + " (headers " + headers.keySet() + ")";
    }
}
