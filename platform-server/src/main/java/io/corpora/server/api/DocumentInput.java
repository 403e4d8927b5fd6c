package io.corpora.server.api;

import java.util.Map;

/** One document submitted as JSON to {@code POST /api/v1/tenants/{tenant}/documents}: its {@code text}, or a {@code url} to fetch. */
public class DocumentInput {
    public String id;
    public String text;
    /** An https URL on one of the tenant's ingest origins; the media type comes from the response. */
    public String url;
    public String source;
    /** text (default), markdown, html, json, jsonl or csv. */
    public String format;
    public Map<String, Object> metadata;
    public String partition;
}
