package io.corpora.engine.retriever;

import io.corpora.spi.ReservedKeys;

/**
 * Metadata keys the engine adds to every passage it builds from a chunk, so composed stages (neighbour windows,
 * citations) can find the chunk's place. They are reserved ({@code _}-prefixed): callers cannot write them.
 */
public final class PassageKeys {

    /** The owning document id. */
    public static final String DOCUMENT = ReservedKeys.DOCUMENT;
    /** The chunk's 0-based position in its document. */
    public static final String CHUNK_INDEX = "_chunk";
    /** The chunk's heading path, when it has one. */
    public static final String HEADING_PATH = "_headingPath";
    /** For an expanded passage: the first and last chunk index of its window. */
    public static final String WINDOW = "_window";
    /** Non-reserved metadata key the passage's citable source is read from (the server stamps the document source). */
    public static final String SOURCE = "source";

    private PassageKeys() {}
}
