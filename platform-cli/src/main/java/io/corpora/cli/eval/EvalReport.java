package io.corpora.cli.eval;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of one evaluation: averages over every query that has qrels, index build time and query latency.
 *
 * @param degradedQueries queries whose reranker failed and which were answered in base order
 * @param failedQueries   queries that failed (scored zero, the run went on)
 * @param failures        the first {@value #MAX_LISTED_FAILURES} failures, "query-id: error"
 */
public record EvalReport(String dataset, String split, String mode, String configuration, int documents, int chunks, int queries,
                         double ndcg10, double recall100, double mrr10, double ingestSeconds, double p50Millis, double p99Millis,
                         int degradedQueries, int failedQueries, List<String> failures) {

    public static final int MAX_LISTED_FAILURES = 10;

    public EvalReport {
        failures = failures == null ? List.of() : List.copyOf(failures);
    }

    public EvalReport(String dataset, String split, String mode, String configuration, int documents, int chunks, int queries,
                      double ndcg10, double recall100, double mrr10, double ingestSeconds, double p50Millis, double p99Millis,
                      int degradedQueries) {
        this(dataset, split, mode, configuration, documents, chunks, queries, ndcg10, recall100, mrr10, ingestSeconds, p50Millis,
                p99Millis, degradedQueries, 0, List.of());
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Nearest-rank percentile (p in 0..100) of the values; 0 for none. */
    public static double percentile(double[] values, double p) {
        if (values.length == 0) {
            return 0;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    /** The machine-readable line: exactly the keys every quality claim is checked against. */
    public String toJson() {
        Map<String, Object> line = new LinkedHashMap<>();
        line.put("ndcg@10", round(ndcg10));
        line.put("recall@100", round(recall100));
        line.put("mrr@10", round(mrr10));
        line.put("queries", queries);
        line.put("failed", failedQueries);
        line.put("mode", mode);
        line.put("configuration", configuration);
        line.put("ingest_seconds", Math.round(ingestSeconds * 100) / 100.0);
        line.put("p50_ms", Math.round(p50Millis * 100) / 100.0);
        line.put("p99_ms", Math.round(p99Millis * 100) / 100.0);
        try {
            return JSON.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot render the eval line", e);
        }
    }

    public String toTable() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "dataset     %s (split %s: %d queries; %d documents in %d chunks)%n", dataset, split, queries,
                documents, chunks));
        b.append(String.format(Locale.ROOT, "mode        %s (%s)%n", mode, configuration));
        b.append(String.format(Locale.ROOT, "nDCG@10     %.4f%n", ndcg10));
        b.append(String.format(Locale.ROOT, "Recall@100  %.4f%n", recall100));
        b.append(String.format(Locale.ROOT, "MRR@10      %.4f%n", mrr10));
        b.append(String.format(Locale.ROOT, "ingest      %.1f s%n", ingestSeconds));
        b.append(String.format(Locale.ROOT, "latency     p50 %.1f ms, p99 %.1f ms", p50Millis, p99Millis));
        if (failedQueries > 0) {
            b.append(String.format(Locale.ROOT, "%nWARNING     %d queries failed and scored 0:", failedQueries));
            failures.forEach(f -> b.append(String.format(Locale.ROOT, "%n            %s", f)));
        }
        if (degradedQueries > 0) {
            b.append(String.format(Locale.ROOT, "%nWARNING     %d queries degraded (reranker failed; base order used)", degradedQueries));
        }
        return b.toString();
    }

    private static double round(double value) {
        return Math.round(value * 10_000) / 10_000.0;
    }
}
