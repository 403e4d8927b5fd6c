package io.corpora.cli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;

/** Everything one run measured: printed as tables, written as {@code results.csv}, {@code notes.txt} and PNG plots. */
final class BenchResults {

    record LatencyRow(String bucket, int chunks, String system, Latency.Result result) {}

    private final Profile profile;
    private final Map<String, String> notes = new LinkedHashMap<>();
    private final List<LatencyRow> latencies = new ArrayList<>();
    private final List<String[]> csv = new ArrayList<>();
    private final List<String> summary = new ArrayList<>();
    private final Map<String, HttpRetrieval.Measured> serverTimes = new LinkedHashMap<>();

    BenchResults(Profile profile) {
        this.profile = profile;
        notes.put("profile", profile.name() + " (" + profile.tenants() + " tenants, Zipf s=" + profile.zipf() + ", ~" + profile.totalChunks()
                + " chunks, largest " + profile.largest() + ")");
    }

    void note(String key, String value) {
        notes.put(key, value);
    }

    private void row(String kind, String bucket, int chunks, String system, int clients, String metric, double value) {
        csv.add(new String[] {kind, bucket, String.valueOf(chunks), system, String.valueOf(clients), metric, String.format(Locale.ROOT, "%.4f", value)});
    }

    /**
     * Ingest at each concurrency: the pipeline against the raw embedder like for like (as many writers as calling
     * threads), against the embedder's capacity (its best rate at any measured concurrency), and its CPU cost beyond the
     * embedder's own per chunk.
     */
    void ingest(int texts, List<IngestThroughput.Rates> rates) {
        summary.add(String.format(Locale.ROOT, "ingest (%d SciFact passages, one chunk per document, embedded afresh; raw embedder and"
                + " pipeline interleaved in %d ABBA slices):", texts, IngestThroughput.SLICES));
        IngestThroughput.Rates bestRaw = rates.get(0);
        IngestThroughput.Rates bestPipeline = rates.get(0);
        for (IngestThroughput.Rates r : rates) {
            String writers = r.concurrency() == 1 ? "1 writer" : r.concurrency() + " writers";
            row("ingest", "-", texts, "raw embedder", r.concurrency(), "chunks_per_s", r.raw().perSecond());
            row("ingest", "-", texts, "pipeline", r.concurrency(), "chunks_per_s", r.pipeline().perSecond());
            row("ingest", "-", texts, "raw embedder", r.concurrency(), "cpu_ms_per_chunk", r.raw().cpuMsPerChunk());
            row("ingest", "-", texts, "pipeline", r.concurrency(), "cpu_ms_per_chunk", r.pipeline().cpuMsPerChunk());
            summary.add(String.format(Locale.ROOT, "  %-9s %6.1f chunks/s against the raw embedder's %6.1f with as many callers = %3.0f %%;"
                            + " CPU %.1f vs %.1f ms per chunk: the pipeline's own cost %.0f %% of the embedder's", writers,
                    r.pipeline().perSecond(), r.raw().perSecond(), 100 * r.pipeline().perSecond() / r.raw().perSecond(),
                    r.pipeline().cpuMsPerChunk(), r.raw().cpuMsPerChunk(),
                    100 * (r.pipeline().cpuMsPerChunk() - r.raw().cpuMsPerChunk()) / r.raw().cpuMsPerChunk()));
            bestRaw = r.raw().perSecond() > bestRaw.raw().perSecond() ? r : bestRaw;
            bestPipeline = r.pipeline().perSecond() > bestPipeline.pipeline().perSecond() ? r : bestPipeline;
        }
        summary.add(String.format(Locale.ROOT, "  against the embedder's capacity (its best: %.1f chunks/s with %d caller(s)): the best pipeline"
                        + " %.1f chunks/s with %d writer(s) = %.0f %%", bestRaw.raw().perSecond(), bestRaw.concurrency(),
                bestPipeline.pipeline().perSecond(), bestPipeline.concurrency(), 100 * bestPipeline.pipeline().perSecond() / bestRaw.raw().perSecond()));
    }

    /** How many segments (one HNSW graph each) a measured tenant's index holds, {@code where} it was built. */
    void segments(Fleet.Tenant tenant, String where, int segments) {
        row("index", tenant.bucket(), tenant.size(), where, 1, "segments", segments);
        summary.add(String.format(Locale.ROOT, "index segments, %s tenant (%d chunks), %s: %d", tenant.bucket(), tenant.size(), where, segments));
    }

    void recall(Fleet.Tenant tenant, double recall, double filtered, double peer, double raw, double rawSameBreadth) {
        row("recall", tenant.bucket(), tenant.size(), "corpora (lucene hnsw)", 1, "recall_at_10", recall);
        row("recall", tenant.bucket(), tenant.size(), "corpora (lucene hnsw), filtered 50%", 1, "recall_at_10", filtered);
        row("recall", tenant.bucket(), tenant.size(), "langchain4j in-memory", 1, "recall_at_10", peer);
        row("recall", tenant.bucket(), tenant.size(), "raw lucene", 1, "recall_at_10", raw);
        row("recall", tenant.bucket(), tenant.size(), "raw lucene, corpora's breadth", 1, "recall_at_10", rawSameBreadth);
        summary.add(String.format(Locale.ROOT, "recall@10 vs exact, %s tenant (%d chunks): Corpora %.3f, filtered (half the chunks) %.3f,"
                + " LangChain4j %.3f, raw Lucene k=%d %.3f, raw Lucene k=%d %.3f", tenant.bucket(), tenant.size(), recall, filtered, peer,
                Systems.TOP_K, raw, Systems.CORPORA_CANDIDATES, rawSameBreadth));
    }

    void latency(Fleet.Tenant tenant, String system, Latency.Result r) {
        latencies.add(new LatencyRow(tenant.bucket(), tenant.size(), system, r));
        row("retrieve", tenant.bucket(), tenant.size(), system, r.clients(), "p50_ms", r.p50Ms());
        row("retrieve", tenant.bucket(), tenant.size(), system, r.clients(), "p99_ms", r.p99Ms());
        row("retrieve", tenant.bucket(), tenant.size(), system, r.clients(), "per_s", r.perSecond());
    }

    /** An HTTP cell: the client's figures as any system's, and the server's own time of the same calls beside them. */
    void httpLatency(Fleet.Tenant tenant, String system, HttpRetrieval.Measured cell) {
        latency(tenant, system, cell.client());
        row("retrieve", tenant.bucket(), tenant.size(), system, cell.client().clients(), "server_p50_ms", cell.serverP50Ms());
        row("retrieve", tenant.bucket(), tenant.size(), system, cell.client().clients(), "server_p99_ms", cell.serverP99Ms());
        serverTimes.put(tenant.bucket() + "|" + system + "|" + cell.client().clients(), cell);
    }

    /** The HTTP cells measured on the tenants an earlier run kept ({@code --http-reuse}): no build, the same segments. */
    void httpReused(Path home, double startSeconds, String heap) {
        notes.put("http server", String.format(Locale.ROOT, "a server of the bench's own (the build's Liberty, development mode, -Xmx%s, embedded"
                + " H2 control plane, Lucene store, bundled ONNX model), ready %.0f s after start", heap, startSeconds));
        notes.put("http tenants", "reused (--http-reuse): the tenants, control plane and index an earlier run kept in " + home.toAbsolutePath()
                + ", measured as they are with this run's WAR; nothing ingested");
    }

    void httpBuild(long prefilled, double prefillSeconds, double startSeconds, HttpTenants.Ingested ingested, int chunksPerDocument, int writers,
                   String heap) {
        row("http ingest", "-", (int) ingested.chunks(), "http ingest, " + writers + " writers", writers, "chunks_per_s",
                ingested.chunks() / ingested.seconds());
        row("http ingest", "-", (int) ingested.chunks(), "document cache", writers, "hits", ingested.cacheHits());
        row("http ingest", "-", (int) ingested.chunks(), "document cache", writers, "misses", ingested.cacheMisses());
        notes.put("http server", String.format(Locale.ROOT, "a server of the bench's own (the build's Liberty, development mode, -Xmx%s, embedded"
                + " H2 control plane, Lucene store, bundled ONNX model), ready %.0f s after start", heap, startSeconds));
        notes.put("http tenants", String.format(Locale.ROOT, "the smallest, median and largest tenant again, %d chunks, created through the"
                + " admin API and ingested through the data API as JSON Lines documents of %d records (%d writers) in %.0f s (%.0f chunks/s);"
                + " their vectors are the in-process fleet's (synthetic), written into the server's document-embedding cache"
                + " beforehand (%d in %.0f s) under the texts its ingest embeds: %d chunk texts read from the cache, %d embedded by the model%s",
                ingested.chunks(), chunksPerDocument, writers, ingested.seconds(), ingested.chunks() / ingested.seconds(), prefilled,
                prefillSeconds, ingested.cacheHits(), ingested.cacheMisses(), ingested.cacheMisses() == 0 ? "" : " (NOT all from the cache:"
                        + " those chunks hold the model's vectors of their texts, not the fleet's)"));
        notes.put("http texts", "each HTTP chunk is its in-process text cut to " + HttpTenants.TEXT_CHARS + " characters plus a unique marker"
                + " [c<rank>x<chunk>] (one record stays one chunk under the server's 800-character window)");
    }

    void httpRecall(Fleet.Tenant tenant, double recall, int queries) {
        row("recall", tenant.bucket(), tenant.size(), "http vector", 1, "recall_at_10", recall);
        summary.add(String.format(Locale.ROOT, "recall@10 vs exact over HTTP (vector mode, %d queries), %s tenant (%d chunks): %.3f",
                queries, tenant.bucket(), tenant.size(), recall));
    }

    /** The server's query-embedding cache over one phase of cells (counts from its metrics). */
    void httpQueryCache(boolean embedded, long hits, long misses) {
        summary.add(String.format(Locale.ROOT, "http, queries %s: the server's query-embedding cache answered %d and its model embedded %d"
                + " during those cells", embedded ? "embedded (a unique marker per call)" : "cached (each asked once beforehand)", hits, misses));
    }

    void interference(Fleet.Tenant small, Latency.Result alone, Latency.Result during, int ingested) {
        row("interference", small.bucket(), small.size(), "alone", 1, "p50_ms", alone.p50Ms());
        row("interference", small.bucket(), small.size(), "while largest ingests", 1, "p50_ms", during.p50Ms());
        summary.add(String.format(Locale.ROOT, "interference: %s tenant p50 %.3f ms alone, %.3f ms while the largest tenant ingests (%d chunks"
                + " embedded and written meanwhile): ratio %.2f (p99 %.3f -> %.3f ms)", small.bucket(), alone.p50Ms(), during.p50Ms(), ingested,
                during.p50Ms() / alone.p50Ms(), alone.p99Ms(), during.p99Ms()));
    }

    void cold(Fleet.Tenant tenant, double firstMs, Latency.Result warm) {
        row("cold", tenant.bucket(), tenant.size(), "first query", 1, "ms", firstMs);
        row("cold", tenant.bucket(), tenant.size(), "warm p50", 1, "ms", warm.p50Ms());
        summary.add(String.format(Locale.ROOT, "cold tenant (%s, %d chunks, index not open in the store): first query %.1f ms, then p50 %.3f ms",
                tenant.bucket(), tenant.size(), firstMs, warm.p50Ms()));
    }

    void quantised(Fleet.Tenant tenant, double recall, Latency.Result latency, long floatBytes, long int8Bytes) {
        row("int8", tenant.bucket(), tenant.size(), "lucene int8", 1, "recall_at_10", recall);
        row("int8", tenant.bucket(), tenant.size(), "lucene int8", 1, "p50_ms", latency.p50Ms());
        row("int8", tenant.bucket(), tenant.size(), "lucene float32", 1, "bytes", floatBytes);
        row("int8", tenant.bucket(), tenant.size(), "lucene int8", 1, "bytes", int8Bytes);
        summary.add(String.format(Locale.ROOT, "int8 quantisation, %s tenant (%d chunks): recall@10 %.3f, p50 %.3f ms; index %.1f MB vs %.1f MB float32"
                + " (int8 keeps the raw vectors for rescoring; the HNSW search reads the 1-byte copies, ~1/4 of the float vector data)",
                tenant.bucket(), tenant.size(), recall, latency.p50Ms(), int8Bytes / 1e6, floatBytes / 1e6));
    }

    /** A pgvector layout's fleet: rows written through the store, how long (indexes included), and the table's bytes. */
    void pgVectorFleet(String layout, Fleet.Written fleet, long bytes) {
        row("pgvector fleet", "-", (int) fleet.chunks(), "pgvector " + layout, 1, "build_s", fleet.seconds());
        row("pgvector fleet", "-", (int) fleet.chunks(), "pgvector " + layout, 1, "bytes", bytes);
        summary.add(String.format(Locale.ROOT, "pgvector %s fleet: %d chunks written through the store in %.0f s (%.0f chunks/s, HNSW"
                + " maintained while writing); table with indexes %.1f MB", layout, fleet.chunks(), fleet.seconds(),
                fleet.chunks() / fleet.seconds(), bytes / 1e6));
    }

    void pgVectorRecall(String layout, Fleet.Tenant tenant, double corpora, double raw, double rawSameBreadth) {
        row("recall", tenant.bucket(), tenant.size(), "corpora pgvector " + layout, 1, "recall_at_10", corpora);
        row("recall", tenant.bucket(), tenant.size(), "raw pgvector " + layout, 1, "recall_at_10", raw);
        row("recall", tenant.bucket(), tenant.size(), "raw pgvector " + layout + ", corpora's breadth", 1, "recall_at_10", rawSameBreadth);
        summary.add(String.format(Locale.ROOT, "recall@10 vs exact, pgvector %s, %s tenant (%d chunks): Corpora %.3f, raw SQL LIMIT %d %.3f,"
                + " raw SQL exploring %d %.3f", layout, tenant.bucket(), tenant.size(), corpora, Systems.TOP_K, raw,
                Systems.CORPORA_CANDIDATES, rawSameBreadth));
    }

    /** Ratios the issue judges by, from this run's own baselines. */
    private List<String> ratios() {
        List<String> out = new ArrayList<>();
        for (String bucket : List.of("smallest", "median", "largest")) {
            for (int clients : BenchCommand.CLIENTS) {
                LatencyRow corpora = find(bucket, "corpora (no embedding)", clients);
                LatencyRow raw = find(bucket, "raw lucene", clients);
                LatencyRow rawSameBreadth = find(bucket, "raw lucene, corpora's breadth", clients);
                LatencyRow peer = find(bucket, "langchain4j in-memory", clients);
                if (corpora == null || raw == null || rawSameBreadth == null || peer == null) {
                    continue;
                }
                out.add(String.format(Locale.ROOT, "%-8s %6d chunks, %2d clients: corpora/raw p50 %.2fx (raw at corpora's breadth %.2fx);"
                        + " corpora/langchain4j throughput %.2fx", bucket, corpora.chunks(), clients, corpora.result().p50Ms() / raw.result().p50Ms(),
                        corpora.result().p50Ms() / rawSameBreadth.result().p50Ms(), corpora.result().perSecond() / peer.result().perSecond()));
            }
        }
        out.addAll(httpRatios());
        for (String layout : List.of("shared", "partitioned")) {
            for (String bucket : List.of("smallest", "median", "largest")) {
                for (int clients : BenchCommand.CLIENTS) {
                    LatencyRow corpora = find(bucket, "corpora pgvector " + layout, clients);
                    LatencyRow raw = find(bucket, "raw pgvector " + layout, clients);
                    LatencyRow rawSameBreadth = find(bucket, "raw pgvector " + layout + ", corpora's breadth", clients);
                    LatencyRow hybrid = find(bucket, "corpora pgvector " + layout + ", hybrid", clients);
                    if (corpora != null && raw != null && rawSameBreadth != null) {
                        out.add(String.format(Locale.ROOT, "pgvector %-11s %-8s %6d chunks, %2d clients: corpora/raw p50 %.2fx (raw at corpora's"
                                + " breadth %.2fx), throughput %.2fx%s", layout, bucket, corpora.chunks(), clients,
                                corpora.result().p50Ms() / raw.result().p50Ms(), corpora.result().p50Ms() / rawSameBreadth.result().p50Ms(),
                                corpora.result().perSecond() / raw.result().perSecond(), hybrid == null ? ""
                                        : String.format(Locale.ROOT, "; hybrid (the default mode) p50 %.2f ms, %.2fx the vector retrieval's",
                                        hybrid.result().p50Ms(), hybrid.result().p50Ms() / corpora.result().p50Ms())));
                    }
                }
            }
        }
        return out;
    }

    /**
     * Each HTTP cell beside the in-process cell of the same tenant, clients and query vectors (vector mode; the HTTP
     * layers' cost is the ratio) and beside the server's own time of the same calls (what HTTP, JAX-RS, JSON-B and
     * the JWT add outside the retrieval).
     */
    private List<String> httpRatios() {
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, HttpRetrieval.Measured> e : serverTimes.entrySet()) {
            String[] key = e.getKey().split("\\|");
            String bucket = key[0];
            String system = key[1];
            HttpRetrieval.Measured http = e.getValue();
            int clients = http.client().clients();
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-8s %2d clients, %-28s p50 %.3f ms (server's own %.3f ms), %.0f/s",
                    bucket, clients, system, http.client().p50Ms(), http.serverP50Ms(), http.client().perSecond()));
            String inProcess = system.equals(HttpRetrieval.system("vector", false)) ? "corpora (no embedding)"
                    : system.equals(HttpRetrieval.system("vector", true)) ? "corpora (with embedding)" : null;
            LatencyRow same = inProcess == null ? null : find(bucket, inProcess, clients);
            if (same != null) {
                line.append(String.format(Locale.ROOT, "; in process %.3f ms: http/in-process p50 %.2fx, throughput %.2fx", same.result().p50Ms(),
                        http.client().p50Ms() / same.result().p50Ms(), http.client().perSecond() / same.result().perSecond()));
            }
            out.add(line.toString());
        }
        return out;
    }

    private LatencyRow find(String bucket, String system, int clients) {
        return latencies.stream().filter(r -> r.bucket().equals(bucket) && r.system().equals(system) && r.result().clients() == clients)
                .findFirst().orElse(null);
    }

    void write(Path dir, PrintStream out) throws IOException {
        StringBuilder text = new StringBuilder();
        notes.forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
        text.append('\n').append(String.format(Locale.ROOT, "%-9s %8s %-32s %7s %10s %10s %10s%n", "tenant", "chunks", "system", "clients",
                "p50 ms", "p99 ms", "ops/s"));
        for (LatencyRow r : latencies) {
            text.append(String.format(Locale.ROOT, "%-9s %8d %-32s %7d %10.3f %10.3f %10.1f%n", r.bucket(), r.chunks(), r.system(),
                    r.result().clients(), r.result().p50Ms(), r.result().p99Ms(), r.result().perSecond()));
        }
        text.append('\n');
        ratios().forEach(l -> text.append(l).append('\n'));
        text.append('\n');
        summary.forEach(l -> text.append(l).append('\n'));
        out.print(text);
        Files.writeString(dir.resolve("summary.txt"), text);
        StringBuilder lines = new StringBuilder("kind,tenant,chunks,system,clients,metric,value\n");
        for (String[] row : csv) {
            lines.append(String.join(",", java.util.Arrays.stream(row).map(BenchResults::csvField).toList())).append('\n');
        }
        Files.writeString(dir.resolve("results.csv"), lines);
        if (!latencies.isEmpty()) { // an ingest-only run has no latency to plot
            plots(dir);
        }
    }

    /** A plottable value: log axes refuse zero, NaN (a cell with no operations) shows as the floor. */
    private static double finite(double ms) {
        return Double.isFinite(ms) && ms > 1e-3 ? ms : 1e-3;
    }

    private static String csvField(String value) {
        return value.contains(",") || value.contains("\"") ? "\"" + value.replace("\"", "\"\"") + "\"" : value;
    }

    private void plots(Path dir) throws IOException {
        List<String> systems = latencies.stream().map(LatencyRow::system).distinct().toList();
        // p50 vs tenant size at one client
        XYChart bySize = new XYChartBuilder().width(1150).height(600).title("retrieve p50 vs tenant size (1 client, " + profile.name() + ")")
                .xAxisTitle("chunks in the tenant").yAxisTitle("p50 (ms)").build();
        bySize.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true).setLegendPosition(Styler.LegendPosition.OutsideE);
        for (String system : systems) {
            List<LatencyRow> rows = latencies.stream().filter(r -> r.system().equals(system) && r.result().clients() == 1)
                    .sorted(java.util.Comparator.comparingInt(LatencyRow::chunks)).toList();
            if (rows.size() > 1) {
                XYSeries series = bySize.addSeries(system, rows.stream().map(r -> (double) r.chunks()).toList(),
                        rows.stream().map(r -> finite(r.result().p50Ms())).toList());
                if (system.startsWith("http")) {
                    series.setLineStyle(SeriesLines.DASH_DASH); // through the server, apart from the in-process lines
                }
            }
        }
        BitmapEncoder.saveBitmap(bySize, dir.resolve("latency-vs-tenant-size").toString(), BitmapEncoder.BitmapFormat.PNG);
        // p99 vs concurrency on the largest tenant
        CategoryChart byClients = new CategoryChartBuilder().width(1150).height(600).title("retrieve p99 vs concurrency, largest tenant (" + profile.name() + ")")
                .xAxisTitle("concurrent clients").yAxisTitle("p99 (ms)").build();
        byClients.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE); // linear: bars on a log axis have no base
        for (String system : systems) {
            List<LatencyRow> rows = latencies.stream().filter(r -> r.system().equals(system) && r.bucket().equals("largest")).toList();
            if (rows.size() == BenchCommand.CLIENTS.length) {
                byClients.addSeries(system, rows.stream().map(r -> String.valueOf(r.result().clients())).toList(),
                        rows.stream().map(r -> finite(r.result().p99Ms())).toList());
            }
        }
        BitmapEncoder.saveBitmap(byClients, dir.resolve("p99-vs-concurrency").toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
