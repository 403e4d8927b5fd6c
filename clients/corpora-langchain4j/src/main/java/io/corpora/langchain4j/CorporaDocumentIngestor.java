package io.corpora.langchain4j;

import dev.langchain4j.data.document.Document;
import io.corpora.client.CorporaClient;
import io.corpora.client.CorporaException;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.Job;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * LangChain4j {@link Document}s into a Corpora tenant, without an {@code EmbeddingStore}: Corpora chunks, embeds and
 * indexes them itself. A document's id is its metadata {@value #ID} when set, else its {@code file_name} or {@code url},
 * else a hash of its text (so re-ingesting the same text is skipped, not duplicated); {@code url} or {@code file_name}
 * becomes the source (and a {@code .md}/{@code .html} name the format); the other metadata goes along (Corpora refuses its reserved keys with a 400).
 */
public final class CorporaDocumentIngestor {

    /** The metadata key whose value names the document in Corpora. */
    public static final String ID = "id";

    private static final int BATCH = 64;

    private final CorporaClient client;
    private final Duration timeout;

    public CorporaDocumentIngestor(CorporaClient client, Duration timeout) {
        this.client = Objects.requireNonNull(client, "client");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    /**
     * Ingests the documents as jobs of up to 64 and waits for them; returns the finished jobs (check each one's status
     * and outcomes: a document that failed does not fail the others).
     */
    public List<Job> ingest(List<Document> documents) {
        List<Job> jobs = new ArrayList<>();
        for (int from = 0; from < documents.size(); from += BATCH) {
            List<DocumentInput> batch = documents.subList(from, Math.min(documents.size(), from + BATCH)).stream()
                    .map(CorporaDocumentIngestor::input).toList();
            jobs.add(client.awaitJob(client.ingestBatch(batch).id(), timeout));
        }
        return jobs;
    }

    static DocumentInput input(Document document) {
        Map<String, Object> metadata = new LinkedHashMap<>(document.metadata().toMap());
        Object explicitId = metadata.remove(ID);
        Object url = metadata.get(Document.URL);
        Object fileName = metadata.get(Document.FILE_NAME);
        String id = explicitId != null ? explicitId.toString() : fileName != null ? fileName.toString()
                : url != null ? url.toString() : sha256(document.text());
        String source = url != null ? url.toString() : fileName != null ? fileName.toString() : null;
        return new DocumentInput(id, document.text(), null, source, format(fileName != null ? fileName : url),
                metadata.isEmpty() ? null : metadata, null);
    }

    /** Markdown and HTML keep their structure (headings become heading paths) when the name says what they are. */
    private static String format(Object name) {
        String n = name == null ? "" : name.toString().toLowerCase(java.util.Locale.ROOT);
        return n.endsWith(".md") || n.endsWith(".markdown") ? "markdown" : n.endsWith(".html") || n.endsWith(".htm") ? "html" : null;
    }

    private static String sha256(String text) {
        try {
            return "sha256-" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new CorporaException("SHA-256 is missing from this JVM", e);
        }
    }
}
