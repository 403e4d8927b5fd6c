package io.corpora.server.api;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.IngestJob;
import io.corpora.engine.retriever.RetrievalDiagnostics;
import io.corpora.retrieval.RetrievalResponse;
import java.util.LinkedHashMap;
import java.util.Map;

/** The JSON shapes of the data-plane API, built as ordered maps so the wire format is explicit in one place. */
public final class Json {

    private Json() {}

    public static Map<String, Object> retrieval(RetrievalResponse response) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("passages", response.passages().stream().map(Json::passage).toList());
        body.put("context", response.context().text());
        body.put("diagnostics", diagnostics(response.diagnostics()));
        return body;
    }

    private static Map<String, Object> passage(RetrievalResponse.CitedPassage p) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", p.id());
        out.put("text", p.text());
        out.put("score", p.score());
        out.put("source", p.source());
        out.put("metadata", p.metadata());
        Map<String, Object> citation = new LinkedHashMap<>();
        citation.put("index", p.citation().index());
        citation.put("documentId", p.citation().documentId());
        citation.put("chunkIndex", p.citation().chunkIndex());
        citation.put("source", p.citation().source());
        if (!p.citation().headingPath().isEmpty()) {
            citation.put("headingPath", p.citation().headingPath());
        }
        if (p.citation().page() != null) {
            citation.put("page", p.citation().page());
        }
        out.put("citation", citation);
        return out;
    }

    static Map<String, Object> diagnostics(RetrievalDiagnostics d) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("legs", d.legs().stream().map(l -> Map.of("name", l.name(), "candidates", l.candidates(), "millis", l.millis())).toList());
        out.put("totalMillis", d.totalMillis());
        out.put("embedder", d.embedderId());
        if (d.isolation() != null) {
            out.put("examined", d.isolation().examined());
            out.put("rejected", d.isolation().rejected());
            out.put("returned", d.isolation().returned());
            out.put("recall", d.isolation().recall());
        }
        out.put("corpusEmpty", d.corpusEmpty());
        out.put("refusals", d.refusals().stream().map(r -> Map.of("passageId", r.passageId(), "reason", r.reason().name(),
                "score", r.score(), "chars", r.chars(), "charsUsed", r.charsUsed())).toList());
        out.put("degraded", d.degraded());
        if (d.degradedReason() != null) {
            out.put("degradedReason", d.degradedReason());
        }
        out.put("notes", d.notes());
        return out;
    }

    static Map<String, Object> outcome(IngestJob.Outcome o) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("documentId", o.documentId());
        out.put("result", o.result());
        out.put("skipped", "skipped".equals(o.result()));
        out.put("version", o.version());
        out.put("chunks", o.chunks());
        out.put("status", o.status());
        if (o.error() != null) {
            out.put("error", o.error());
        }
        return out;
    }

    /** An ingest or re-embed job; also served by the admin API. */
    public static Map<String, Object> job(IngestJob job) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", job.id());
        out.put("kind", job.kind().name().toLowerCase(java.util.Locale.ROOT));
        out.put("partition", job.partition());
        out.put("status", job.status().name());
        out.put("total", job.total());
        out.put("succeeded", job.succeeded());
        out.put("skipped", job.skipped());
        out.put("failed", job.failed());
        out.put("percent", job.percent());
        if (job.reembed() != null) {
            Map<String, Object> reembed = new LinkedHashMap<>();
            reembed.put("from", job.reembed().fromEmbedder());
            reembed.put("to", job.reembed().toEmbedder());
            reembed.put("provider", job.reembed().targetEmbedder().provider());
            out.put("reembed", reembed);
        }
        if (job.error() != null) {
            out.put("error", job.error());
        }
        out.put("outcomes", job.outcomes().stream().map(Json::outcome).toList());
        out.put("created", String.valueOf(job.created()));
        out.put("updated", String.valueOf(job.updated()));
        return out;
    }

    public static Map<String, Object> document(DocumentRecord d) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", d.documentId());
        out.put("partition", d.namespace().partitionKey());
        out.put("source", d.source());
        out.put("mediaType", d.mediaType());
        out.put("status", d.status().name());
        out.put("version", d.activeVersion());
        out.put("chunks", d.chunkCount());
        out.put("bytes", d.bytes());
        out.put("metadata", d.metadata());
        if (d.error() != null) {
            out.put("error", d.error());
        }
        out.put("updated", String.valueOf(d.updated()));
        return out;
    }

}
