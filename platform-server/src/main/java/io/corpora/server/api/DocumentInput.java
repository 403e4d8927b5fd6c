package io.corpora.server.api;

import java.util.Map;

/** One document submitted as JSON to {@code POST /api/v1/tenants/{tenant}/documents}. */
public class DocumentInput {
    public String id;
    public String text;
    public String source;
    /** text (default), markdown, html, json, jsonl or csv. */
    public String format;
    public Map<String, Object> metadata;
    public String partition;
}
