package io.corpora.spi.loader;

import io.corpora.spi.Metadata;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The text a loader extracted, ready for chunking.
 *
 * @param format   selects the chunker
 * @param title    the document title if the format has one, else null
 * @param sections the text in order; never empty for a document with text
 * @param metadata document-level metadata found in the content (e.g. Markdown front matter, PDF info)
 */
public record LoadedDocument(ContentFormat format, String title, List<Section> sections, Map<String, Object> metadata) {
    public LoadedDocument {
        Objects.requireNonNull(format, "format");
        sections = List.copyOf(sections);
        metadata = Metadata.copyOf(metadata);
    }

    public static LoadedDocument prose(String text) {
        return new LoadedDocument(ContentFormat.PROSE, null, List.of(Section.of(text)), Map.of());
    }

    /** Total characters over all sections. */
    public long length() {
        return sections.stream().mapToLong(s -> s.text().length()).sum();
    }
}
