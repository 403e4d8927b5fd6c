package io.corpora.client;

import io.corpora.client.model.AnswerCitation;
import io.corpora.client.model.Passage;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The metadata a framework adapter attaches to a retrieved passage, written once for every adapter (LangChain4j,
 * Spring AI): the passage's own metadata first, then its citation's keys, which win a clash; null values left out.
 * An answer's citation gets the same keys, so code that reads a retrieved passage's metadata reads a cited one's.
 */
public final class PassageMetadata {

    public static final String SOURCE = "source";
    public static final String DOCUMENT_ID = "documentId";
    public static final String HEADING_PATH = "headingPath";
    public static final String CHUNK_INDEX = "chunkIndex";
    public static final String PASSAGE_ID = "passageId";
    public static final String SCORE = "score";
    public static final String PAGE = "page";

    private PassageMetadata() {}

    /** In insertion order; {@link #HEADING_PATH} is the list of headings, outermost first. */
    public static Map<String, Object> of(Passage passage) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        passage.metadata().forEach((key, value) -> {
            if (value != null) {
                metadata.put(key, value);
            }
        });
        putIfPresent(metadata, SOURCE, passage.source() != null ? passage.source() : passage.citation().source());
        putIfPresent(metadata, DOCUMENT_ID, passage.citation().documentId());
        putIfPresent(metadata, CHUNK_INDEX, passage.citation().chunkIndex());
        putIfPresent(metadata, HEADING_PATH, passage.citation().headingPath());
        putIfPresent(metadata, PAGE, passage.citation().page());
        return metadata;
    }

    /** A cited passage of an answer: {@link #PASSAGE_ID}, {@link #DOCUMENT_ID}, {@link #SOURCE}, {@link #HEADING_PATH}. */
    public static Map<String, Object> of(AnswerCitation citation) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        putIfPresent(metadata, PASSAGE_ID, citation.passageId());
        putIfPresent(metadata, DOCUMENT_ID, citation.documentId());
        putIfPresent(metadata, SOURCE, citation.source());
        putIfPresent(metadata, HEADING_PATH, citation.headingPath());
        return metadata;
    }

    private static void putIfPresent(Map<String, Object> metadata, String key, Object value) {
        if (value != null) {
            metadata.put(key, value);
        }
    }
}
