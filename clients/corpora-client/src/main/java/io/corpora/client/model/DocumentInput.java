package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * One document for a JSON ingest: its {@code text}, or a {@code url} the server fetches (https, from one of the tenant's
 * ingest origins).
 *
 * @param format text (default), markdown, html, json, jsonl or csv
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DocumentInput(String id, String text, String url, String source, String format, Map<String, Object> metadata,
                            String partition) {

    public static DocumentInput text(String id, String text) {
        return new DocumentInput(id, text, null, null, null, null, null);
    }

    public static DocumentInput url(String id, String url) {
        return new DocumentInput(id, null, url, null, null, null, null);
    }

    public DocumentInput withSource(String s) {
        return new DocumentInput(id, text, url, s, format, metadata, partition);
    }

    public DocumentInput withFormat(String f) {
        return new DocumentInput(id, text, url, source, f, metadata, partition);
    }

    public DocumentInput withMetadata(Map<String, Object> m) {
        return new DocumentInput(id, text, url, source, format, m, partition);
    }

    public DocumentInput withPartition(String p) {
        return new DocumentInput(id, text, url, source, format, metadata, p);
    }
}
