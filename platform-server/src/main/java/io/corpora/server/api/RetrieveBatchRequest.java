package io.corpora.server.api;

import java.util.List;

/** The body of {@code POST /api/v1/tenants/{tenant}/retrieve:batch}: up to 32 retrieve requests and one partition. */
public class RetrieveBatchRequest {
    public List<RetrieveRequest> queries;
    public String partition;
}
