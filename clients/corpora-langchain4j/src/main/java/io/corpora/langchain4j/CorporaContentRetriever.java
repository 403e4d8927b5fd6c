package io.corpora.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import io.corpora.client.CorporaClient;
import io.corpora.client.FrameworkRetrieval;
import io.corpora.client.PassageMetadata;
import io.corpora.client.model.Passage;
import io.corpora.client.model.RetrieveOptions;
import io.corpora.client.model.RetrieveRequest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Function;

/**
 * A Corpora tenant as a LangChain4j {@link ContentRetriever}: the query's text is retrieved (with the tenant's access
 * rules applied to the client's token) and each passage becomes a {@link Content} whose segment text is the passage
 * and whose metadata holds {@value #SOURCE}, {@value #DOCUMENT_ID}, {@value #HEADING_PATH} (headings joined by
 * {@code " > "}), {@value #CHUNK_INDEX}, {@value #PASSAGE_ID}, {@value #SCORE} and the passage's own metadata; the
 * score is also the content's {@link ContentMetadata#SCORE}.
 *
 * <pre>{@code
 * ContentRetriever retriever = new CorporaContentRetriever(corpora, RetrieveOptions.DEFAULTS.withTopK(5));
 * Assistant assistant = AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever).build();
 * }</pre>
 *
 * Errors are not swallowed: a problem the server answers surfaces as a {@code CorporaProblemException}, so an
 * application never answers from an empty context because retrieval failed.
 */
public final class CorporaContentRetriever implements ContentRetriever {

    public static final String SOURCE = PassageMetadata.SOURCE;
    public static final String DOCUMENT_ID = PassageMetadata.DOCUMENT_ID;
    public static final String HEADING_PATH = PassageMetadata.HEADING_PATH;
    public static final String CHUNK_INDEX = PassageMetadata.CHUNK_INDEX;
    public static final String PASSAGE_ID = PassageMetadata.PASSAGE_ID;
    public static final String SCORE = PassageMetadata.SCORE;
    public static final String PAGE = PassageMetadata.PAGE;

    private final FrameworkRetrieval<Query> retrieval;

    /** Every query with the tenant's retrieval defaults. */
    public CorporaContentRetriever(CorporaClient client) {
        this(client, RetrieveOptions.DEFAULTS);
    }

    /** Every query with the same options, e.g. {@code RetrieveOptions.DEFAULTS.withTopK(5).withFilter(Map.of("lang", "en"))}. */
    public CorporaContentRetriever(CorporaClient client, RetrieveOptions options) {
        this.retrieval = FrameworkRetrieval.withOptions(client, options, Query::text);
    }

    /** The request for each query made by {@code request} (e.g. a filter from the query's chat memory id). */
    public CorporaContentRetriever(CorporaClient client, Function<Query, RetrieveRequest> request) {
        this.retrieval = new FrameworkRetrieval<>(client, request);
    }

    @Override
    public List<Content> retrieve(Query query) {
        return retrieval.passages(query).stream().map(CorporaContentRetriever::content).toList();
    }

    /** One passage as LangChain4j content. */
    static Content content(Passage passage) {
        Metadata metadata = new Metadata();
        PassageMetadata.of(passage).forEach((key, value) -> put(metadata, key,
                // LangChain4j metadata holds no lists: the heading path as one string, outermost first
                key.equals(HEADING_PATH) && value instanceof List<?> headings ? String.join(" > ", headings.stream().map(String::valueOf).toList()) : value));
        put(metadata, PASSAGE_ID, passage.id());
        put(metadata, SCORE, passage.score());
        return Content.from(TextSegment.from(passage.text(), metadata), Map.of(ContentMetadata.SCORE, passage.score()));
    }

    /** LangChain4j metadata holds strings, UUIDs and numbers only; anything else (lists, objects) goes in as its text. */
    private static void put(Metadata metadata, String key, Object value) {
        if (value == null) {
            return;
        }
        if (value instanceof Integer i) {
            metadata.put(key, i);
        } else if (value instanceof Long l) {
            metadata.put(key, l);
        } else if (value instanceof Double d) {
            metadata.put(key, d);
        } else if (value instanceof Float f) {
            metadata.put(key, f);
        } else if (value instanceof UUID u) {
            metadata.put(key, u);
        } else {
            metadata.put(key, String.valueOf(value));
        }
    }
}
