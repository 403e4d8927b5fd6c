package io.corpora.cli.bench;

import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.Locale;

/** The server's cache counters, read from its Prometheus text at {@code /metrics} (0 for a gauge it does not register). */
record ServerMetrics(long documentCacheHits, long documentCacheMisses, long queryCacheHits, long queryCacheMisses) {

    static ServerMetrics read(BenchHttp http) throws IOException, InterruptedException {
        HttpResponse<String> metrics = http.send(http.get("metrics", null));
        if (metrics.statusCode() != 200) {
            throw new IOException("GET /metrics: HTTP " + metrics.statusCode());
        }
        String text = metrics.body();
        return new ServerMetrics(gauge(text, "corpora_ingest_embeddingCache_hits"), gauge(text, "corpora_ingest_embeddingCache_misses"),
                gauge(text, "corpora_retrieve_queryCache_hits"), gauge(text, "corpora_retrieve_queryCache_misses"));
    }

    /** The sum of a metric's samples (whatever their labels); names compared without case. */
    static long gauge(String prometheusText, String name) {
        String wanted = name.toLowerCase(Locale.ROOT);
        double sum = 0;
        for (String line : prometheusText.split("\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (!line.startsWith("#") && (lower.startsWith(wanted + "{") || lower.startsWith(wanted + " "))) {
                sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return Math.round(sum);
    }
}
