package io.corpora.springai;

import io.corpora.client.CorporaClient;
import io.corpora.client.FrameworkRetrieval;
import io.corpora.client.PassageMetadata;
import io.corpora.client.model.Passage;
import io.corpora.client.model.RetrieveOptions;
import io.corpora.client.model.RetrieveRequest;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * A Corpora tenant as a Spring AI {@link DocumentRetriever}, for {@code RetrievalAugmentationAdvisor}: the query's text is
 * retrieved (the tenant's access rules applied to the client's token) and each passage becomes a {@link Document} with the
 * passage's id, text and score, and metadata {@value #SOURCE}, {@value #DOCUMENT_ID}, {@value #HEADING_PATH} (a list),
 * {@value #CHUNK_INDEX} and the passage's own metadata.
 *
 * <pre>{@code
 * Advisor rag = RetrievalAugmentationAdvisor.builder()
 *         .documentRetriever(new CorporaDocumentRetriever(corpora, RetrieveOptions.DEFAULTS.withTopK(5)))
 *         .build();
 * String answer = chatClient.prompt().advisors(rag).user(question).call().content();
 * }</pre>
 *
 * A problem the server answers surfaces as a {@code CorporaProblemException}, never as an empty context.
 */
public final class CorporaDocumentRetriever implements DocumentRetriever {

    public static final String SOURCE = PassageMetadata.SOURCE;
    public static final String DOCUMENT_ID = PassageMetadata.DOCUMENT_ID;
    public static final String HEADING_PATH = PassageMetadata.HEADING_PATH;
    public static final String CHUNK_INDEX = PassageMetadata.CHUNK_INDEX;
    public static final String PAGE = PassageMetadata.PAGE;

    private final FrameworkRetrieval<Query> retrieval;

    /** Every query with the tenant's retrieval defaults. */
    public CorporaDocumentRetriever(CorporaClient client) {
        this(client, RetrieveOptions.DEFAULTS);
    }

    /** Every query with the same options, e.g. {@code RetrieveOptions.DEFAULTS.withTopK(5).withFilter(Map.of("lang", "en"))}. */
    public CorporaDocumentRetriever(CorporaClient client, RetrieveOptions options) {
        this.retrieval = FrameworkRetrieval.withOptions(client, options, Query::text);
    }

    /** The request for each query made by {@code request} (e.g. a filter from {@link Query#context()}). */
    public CorporaDocumentRetriever(CorporaClient client, Function<Query, RetrieveRequest> request) {
        this.retrieval = new FrameworkRetrieval<>(client, request);
    }

    @Override
    public List<Document> retrieve(Query query) {
        return retrieval.passages(query).stream().map(CorporaDocumentRetriever::document).toList();
    }

    static Document document(Passage passage) {
        // Spring AI documents refuse null metadata values: PassageMetadata leaves them out.
        Map<String, Object> metadata = PassageMetadata.of(passage);
        return Document.builder().id(passage.id()).text(passage.text()).metadata(metadata).score(passage.score()).build();
    }
}
