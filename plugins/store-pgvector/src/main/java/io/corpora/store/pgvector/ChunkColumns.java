package io.corpora.store.pgvector;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The physical column names of the chunk table. Each logical column has a default name; the {@code columns}
 * option overrides some of them with {@code logical=physical} pairs, every physical name validated by
 * {@link SqlIdentifier} before it can reach SQL.
 */
final class ChunkColumns {

    /** The logical columns, with their option key and default physical name. */
    enum Column {
        TENANT("tenant", "tenant"),
        PARTITION("partition", "partition_key"),
        ID("id", "chunk_id"),
        DOCUMENT("documentId", "document_id"),
        CHUNK_INDEX("chunkIndex", "chunk_index"),
        EMBEDDER("embedder", "embedder"),
        TEXT("text", "text"),
        INDEX_TEXT("indexText", "index_text"),
        HEADINGS("headingPath", "heading_path"),
        METADATA("metadata", "metadata"),
        EMBEDDING("embedding", "embedding"),
        /** The keyword leg's tsvector of {@link #INDEX_TEXT}: a stored generated column, never written by the store. */
        INDEX_VECTOR("indexVector", "index_tsv");

        final String key;
        final String defaultName;

        Column(String key, String defaultName) {
            this.key = key;
            this.defaultName = defaultName;
        }
    }

    private final Map<Column, String> names;

    private ChunkColumns(Map<Column, String> names) {
        this.names = names;
    }

    static ChunkColumns defaults() {
        return parse(List.of());
    }

    /** Parses {@code logical=physical} overrides; refuses unknown logical names, bad identifiers and duplicates. */
    static ChunkColumns parse(List<String> overrides) {
        Map<Column, String> names = new EnumMap<>(Column.class);
        for (Column column : Column.values()) {
            names.put(column, column.defaultName);
        }
        for (String pair : overrides) {
            int eq = pair.indexOf('=');
            if (eq < 0) {
                throw new IllegalArgumentException("columns entry must be logical=physical, got: \"" + pair + '"');
            }
            String logical = pair.substring(0, eq).trim();
            Column column = byKey(logical);
            names.put(column, SqlIdentifier.require("column for '" + logical + "'", pair.substring(eq + 1).trim()));
        }
        Set<String> seen = new HashSet<>();
        for (Map.Entry<Column, String> entry : names.entrySet()) {
            if (!seen.add(entry.getValue())) {
                throw new IllegalArgumentException("columns: physical name '" + entry.getValue() + "' is used twice");
            }
        }
        return new ChunkColumns(names);
    }

    private static Column byKey(String key) {
        for (Column column : Column.values()) {
            if (column.key.equals(key)) {
                return column;
            }
        }
        List<String> known = new ArrayList<>();
        for (Column column : Column.values()) {
            known.add(column.key);
        }
        throw new IllegalArgumentException("columns: unknown logical column '" + key + "' (known: " + String.join(", ", known) + ")");
    }

    String tenant() { return names.get(Column.TENANT); }
    String partition() { return names.get(Column.PARTITION); }
    String id() { return names.get(Column.ID); }
    String document() { return names.get(Column.DOCUMENT); }
    String chunkIndex() { return names.get(Column.CHUNK_INDEX); }
    String embedder() { return names.get(Column.EMBEDDER); }
    String text() { return names.get(Column.TEXT); }
    String indexText() { return names.get(Column.INDEX_TEXT); }
    String headings() { return names.get(Column.HEADINGS); }
    String metadata() { return names.get(Column.METADATA); }
    String embedding() { return names.get(Column.EMBEDDING); }
    String indexVector() { return names.get(Column.INDEX_VECTOR); }

    /**
     * The columns the store writes, comma-separated, in {@link Column} order; the generated {@link Column#INDEX_VECTOR}
     * is not among them (it exists only where the keyword leg is on).
     */
    String writtenColumns() {
        List<String> written = new ArrayList<>();
        names.forEach((column, name) -> {
            if (column != Column.INDEX_VECTOR) {
                written.add(name);
            }
        });
        return String.join(", ", written);
    }

    @Override
    public String toString() {
        return names.toString().toLowerCase(Locale.ROOT);
    }
}
