package io.corpora.server.api;

import io.corpora.retrieval.RetrieveCommand;
import io.corpora.retrieval.RetrieveLimits;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/tenants/{tenant}/ask}. As for retrieve, there is no tenant field: the tenant is the
 * token's. The question is bounded like a retrieve query (it is one).
 *
 * @param question  what to answer
 * @param topK      passages retrieved (the tenant's default when absent)
 * @param filter    a metadata filter; it can only narrow what the caller may see
 * @param partition the partition to ask in (a partition-bound token's own when absent)
 * @param mode      vector | keyword | hybrid (the tenant's default when absent)
 * @param stream    true: {@code text/event-stream} events instead of one JSON answer
 */
public record AskRequest(
        @Schema(required = true, description = "The question; bounded as a retrieve query is") String question,
        @Schema(minimum = "1", maximum = "100") Integer topK,
        @Schema(description = "Metadata filter (same language as retrieve); it can only narrow the caller's access") Map<String, Object> filter,
        @Schema(description = "The partition to ask in (a partition-bound token's own when absent)") String partition,
        @Schema(enumeration = {"vector", "keyword", "hybrid"}) String mode,
        @Schema(description = "true: answer as text/event-stream (events retrieval, delta, done, error)") Boolean stream) {

    boolean streamed() {
        return Boolean.TRUE.equals(stream);
    }

    /** The retrieval the answer is grounded in, within the limits of a retrieve. */
    RetrieveCommand toCommand(RetrieveLimits limits) {
        return new RetrieveCommand(limits.query(question), mode, topK, limits.filter(filter), null, null, null, 0, null);
    }
}
