package io.corpora.spi.loader;

import io.corpora.spi.Metadata;
import java.util.Map;
import java.util.Objects;

/**
 * A part of a loaded document with its own metadata, e.g. a PDF page ({@code page: 3}) or one record.
 * Chunks never span sections, and inherit the section's metadata.
 */
public record Section(String text, Map<String, Object> metadata) {
    public Section {
        Objects.requireNonNull(text, "text");
        metadata = Metadata.copyOf(metadata);
    }

    public static Section of(String text) {
        return new Section(text, Map.of());
    }
}
