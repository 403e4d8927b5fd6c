package io.corpora.cli.eval;

import io.corpora.engine.retriever.PassageKeys;
import io.corpora.spi.Passage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a chunk ranking into a document ranking: a document's score is its best chunk's, so its place is the
 * place of its best chunk. A document whose id equals the query id is never retrieved (the BEIR convention).
 */
public final class DocumentRanking {

    private DocumentRanking() {}

    /**
     * Documents by the sum of their best {@code topChunks} chunk scores (1: the best chunk's, the default). Summing
     * rewards a document that matches in several places; it only applies to scores that add up (similarities, BM25,
     * fused scores), and with 1 it equals {@link #of(List, String)}.
     */
    public static List<String> of(List<Passage> passages, String queryId, int topChunks) {
        if (topChunks <= 1) {
            return of(passages, queryId);
        }
        Map<String, double[]> sums = new LinkedHashMap<>(); // [sum, chunks counted]
        for (Passage p : passages) {
            String documentId = p.metadata().get(PassageKeys.DOCUMENT) instanceof String s ? s : p.id();
            if (!documentId.equals(queryId)) {
                double[] acc = sums.computeIfAbsent(documentId, d -> new double[2]);
                if (acc[1] < topChunks) { // passages come best first, so these are the document's best chunks
                    acc[0] += p.score();
                    acc[1]++;
                }
            }
        }
        List<String> ids = new ArrayList<>(sums.keySet());
        // stable: equal sums keep the best-chunk order
        ids.sort((a, b) -> Double.compare(sums.get(b)[0], sums.get(a)[0]));
        return ids;
    }

    public static List<String> of(List<Passage> passages, String queryId) {
        Map<String, Boolean> documents = new LinkedHashMap<>();
        for (Passage p : passages) {
            String documentId = p.metadata().get(PassageKeys.DOCUMENT) instanceof String s ? s : p.id();
            if (!documentId.equals(queryId)) {
                documents.putIfAbsent(documentId, Boolean.TRUE);
            }
        }
        return new ArrayList<>(documents.keySet());
    }

    /** The head ranking, then the tail's documents not already in it (a reranked prefix over a deeper base ranking). */
    public static List<String> append(List<String> head, List<String> tail) {
        List<String> merged = new ArrayList<>(head);
        java.util.Set<String> seen = new java.util.HashSet<>(head);
        for (String id : tail) {
            if (seen.add(id)) {
                merged.add(id);
            }
        }
        return merged;
    }
}
