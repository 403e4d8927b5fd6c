package io.corpora.client.model;

/**
 * What happened to one ingested document.
 *
 * @param result {@code stored}, {@code skipped} (unchanged) or {@code failed}
 * @param status the HTTP status a single-document ingest answers for it (201, 200, 4xx/5xx)
 * @param type   for a failure, the problem type a single-document ingest answers (e.g.
 *               {@code https://corpora.dev/problems/concurrent-write}: retry; {@code …/quota-exceeded}: do not); null
 *               otherwise
 * @param error  why it failed; null otherwise
 */
public record IngestOutcome(String documentId, String result, boolean skipped, int version, int chunks, int status, String type,
                            String error) {}
