package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.Objects;

/**
 * The body of an ask. Only {@code question} is required; null fields take the tenant's defaults. As for retrieve, there
 * is no tenant field: the server takes the tenant from the token. {@code stream} is set by the client's call
 * ({@code ask} sends none, {@code askStreaming} true).
 *
 * @param topK   passages retrieved to answer from
 * @param filter a metadata filter; it can only narrow what the caller may see
 * @param mode   vector, keyword or hybrid
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record AskRequest(String question, Integer topK, Map<String, Object> filter, String partition, String mode, Boolean stream) {

    public AskRequest {
        Objects.requireNonNull(question, "question");
    }

    public static AskRequest of(String question) {
        return new AskRequest(question, null, null, null, null, null);
    }

    public AskRequest withTopK(int k) {
        return new AskRequest(question, k, filter, partition, mode, stream);
    }

    public AskRequest withFilter(Map<String, Object> f) {
        return new AskRequest(question, topK, f, partition, mode, stream);
    }

    public AskRequest withPartition(String p) {
        return new AskRequest(question, topK, filter, p, mode, stream);
    }

    public AskRequest withMode(String m) {
        return new AskRequest(question, topK, filter, partition, m, stream);
    }

    /** The same question as a stream ({@code true}) or as one JSON answer ({@code null}: the server's default). */
    public AskRequest streamed(boolean streamed) {
        return new AskRequest(question, topK, filter, partition, mode, streamed ? Boolean.TRUE : null);
    }
}
