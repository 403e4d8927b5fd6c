package io.corpora.spi.loader;

/** How loaded text is structured, which selects the chunker. */
public enum ContentFormat {
    /** Running prose: the window chunker with paragraph/sentence/word boundaries. */
    PROSE,
    /** Markdown: split by heading, each chunk keeps its heading path. */
    MARKDOWN,
    /** Independent records (JSON array items, JSONL lines, CSV rows): one record per unit. */
    RECORDS
}
