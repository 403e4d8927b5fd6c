package io.corpora.client;

import io.corpora.client.model.Passage;
import io.corpora.client.model.RetrieveOptions;
import io.corpora.client.model.RetrieveRequest;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The retrieval a framework adapter (LangChain4j, Spring AI) runs for its framework's query, written once for every
 * adapter: the request for each query (the same options every time, or a function of the query) and the passages the
 * tenant's access rules let the client's token see. Errors are not swallowed: a problem the server answers surfaces as
 * a {@link CorporaProblemException}, so an application never answers from an empty context because retrieval failed.
 *
 * @param <Q> the framework's query type
 */
public final class FrameworkRetrieval<Q> {

    private final CorporaClient client;
    private final Function<Q, RetrieveRequest> request;

    /** The request for each query made by {@code request} (e.g. a filter from the query's context). */
    public FrameworkRetrieval(CorporaClient client, Function<Q, RetrieveRequest> request) {
        this.client = Objects.requireNonNull(client, "client");
        this.request = Objects.requireNonNull(request, "request");
    }

    /** Every query's {@code text} retrieved with the same options. */
    public static <Q> FrameworkRetrieval<Q> withOptions(CorporaClient client, RetrieveOptions options, Function<Q, String> text) {
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(text, "text");
        return new FrameworkRetrieval<>(client, query -> options.request(text.apply(query)));
    }

    public List<Passage> passages(Q query) {
        return client.retrieve(request.apply(query)).passages();
    }
}
