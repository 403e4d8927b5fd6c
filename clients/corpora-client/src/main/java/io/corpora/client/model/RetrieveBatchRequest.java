package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** Up to 32 retrieves in one call, one partition for all (leave each query's partition null). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RetrieveBatchRequest(List<RetrieveRequest> queries, String partition) {

    public RetrieveBatchRequest {
        queries = List.copyOf(queries);
    }
}
