package io.corpora.cli.bench;

import io.corpora.security.DevTokenMinter;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntConsumer;

/**
 * Tenant density: how open files, threads, RSS and live heap of a running server grow with the number of provisioned
 * tenants, each holding one short document, and how long the first query of a cold tenant takes.
 *
 * <p>It provisions tenants {@code <prefix>00001…} through the admin and data APIs (skipping those that exist, so a run
 * can grow an earlier one), and at every checkpoint reads the server process ({@link ProcessResources}) and times a
 * retrieval on the first tenant provisioned (by then the least recently used, so cold when the working set is bounded)
 * and the same retrieval again (warm). Reusable: {@code bin/corpora bench density} runs it, a wider benchmark calls
 * {@link #run}.
 */
public final class DensityBench {

    /**
     * One checkpoint. Latencies in milliseconds; -1 when there was no tenant to query or nothing was measured. The steady
     * figures: back-to-back retrievals of the newest tenant (in the working set, its query vector cached), their p50
     * and the server's CPU per retrieval over them — what one request costs with the working set as full as it is.
     */
    public record Row(int tenants, ProcessResources.Sample resources, double coldQueryMs, double warmQueryMs, double steadyP50Ms,
                      double serverCpuMsPerQuery) {

        static final String CSV_HEADER = "tenants,open_files,threads,rss_mb,live_heap_mb,cold_first_query_ms,warm_query_ms,"
                + "steady_p50_ms,server_cpu_ms_per_query";
        /** The header of runs before the steady figures (2026-12-05): their rows read with -1 for those. */
        static final String CSV_HEADER_V1 = "tenants,open_files,threads,rss_mb,live_heap_mb,cold_first_query_ms,warm_query_ms";

        String csv() {
            return String.format(Locale.ROOT, "%d,%d,%d,%.1f,%.1f,%.1f,%.1f,%.2f,%.2f", tenants, resources.openFiles(), resources.threads(),
                    resources.rssBytes() / MB, resources.liveHeapBytes() / MB, coldQueryMs, warmQueryMs, steadyP50Ms, serverCpuMsPerQuery);
        }

        /** A line {@link #csv} wrote (memory back to bytes, to the 0.1 MB it was written with), or one of a run before the steady figures. */
        static Row parse(String line) {
            String[] f = line.trim().split(",");
            if (f.length != 7 && f.length != 9) {
                throw new IllegalArgumentException("expected 9 fields (" + CSV_HEADER + "), or 7 of an earlier run, got " + f.length + ": " + line);
            }
            return new Row(Integer.parseInt(f[0]), new ProcessResources.Sample(Long.parseLong(f[1]), Long.parseLong(f[2]),
                    Math.round(Double.parseDouble(f[3]) * MB), Math.round(Double.parseDouble(f[4]) * MB)),
                    Double.parseDouble(f[5]), Double.parseDouble(f[6]), f.length == 9 ? Double.parseDouble(f[7]) : -1,
                    f.length == 9 ? Double.parseDouble(f[8]) : -1);
        }

        double rssMb() {
            return resources.rssBytes() / MB;
        }

        double liveHeapMb() {
            return resources.liveHeapBytes() / MB;
        }
    }

    static final double MB = 1048576.0;

    private static final String DOCUMENT = "Tenant %s keeps one short note: the quarterly report covers revenue, churn and the"
            + " roadmap for the search product, with a section on hybrid retrieval.";

    private final BenchHttp http;
    private final DevTokenMinter tokens;
    private final ProcessResources process;
    private final String prefix;
    private final int clients;
    private final Duration steady;
    private final String adminToken;

    /** @param steady how long the steady retrievals run at each checkpoint; zero: not measured */
    public DensityBench(URI server, DevTokenMinter tokens, ProcessResources process, String prefix, int clients, Duration steady) {
        this.http = new BenchHttp(server);
        this.steady = steady;
        this.tokens = tokens;
        this.process = process;
        this.prefix = prefix;
        this.clients = clients;
        this.adminToken = tokens.mint("density-bench", null, List.of("platform-admin"), Duration.ofHours(6), Map.of());
    }

    /** Provisions up to each checkpoint in turn and measures there; rows are printed as they come and returned. */
    public List<Row> run(List<Integer> checkpoints, PrintStream progress) throws IOException, InterruptedException {
        List<Row> rows = new ArrayList<>();
        int provisioned = 0;
        for (int target : checkpoints) {
            long start = System.nanoTime();
            provision(provisioned, target);
            provisioned = Math.max(provisioned, target);
            progress.printf(Locale.ROOT, "density: %d tenants provisioned (%.0f s); measuring …%n", provisioned, (System.nanoTime() - start) / 1e9);
            double cold = provisioned == 0 ? -1 : retrieveMillis(tenantId(1));
            double warm = provisioned == 0 ? -1 : retrieveMillis(tenantId(1));
            Steady cost = provisioned == 0 || steady.isZero() ? Steady.NOT_MEASURED : steadyCost(tenantId(provisioned));
            Row row = new Row(provisioned, process.sample(), cold, warm, cost.p50Ms(), cost.serverCpuMsPerQuery());
            progress.println("density: " + Row.CSV_HEADER + "\ndensity: " + row.csv());
            rows.add(row);
        }
        return rows;
    }

    /** What one retrieval costs with the working set as it is: its p50 and the server's CPU per retrieval, in ms. */
    private record Steady(double p50Ms, double serverCpuMsPerQuery) {
        static final Steady NOT_MEASURED = new Steady(-1, -1);
    }

    /**
     * Retrievals of one tenant back to back for {@link #steady} ({@link Latency}, one client), after as long unmeasured
     * (a fresh server's JIT is still compiling the path); the server process's CPU over the measured window ({@code /proc}).
     */
    private Steady steadyCost(String tenant) throws IOException {
        String reader = tokens.mint("density-bench", tenant, List.of("reader"), steady.multipliedBy(3).plusMinutes(10), Map.of());
        IntConsumer retrieval = n -> {
            try {
                retrieveMillis(tenant, reader);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        };
        Latency.measure(1, steady, Duration.ZERO, retrieval); // the warm-up, apart so the CPU below covers the window alone
        double cpuBefore = ThreadCpu.of(process.pid()).processSeconds();
        Latency.Result window = Latency.measure(1, steady, Duration.ZERO, retrieval);
        double cpuSeconds = ThreadCpu.of(process.pid()).processSeconds() - cpuBefore;
        return new Steady(window.p50Ms(), cpuSeconds * 1000 / window.operations());
    }

    public static void writeCsv(List<Row> rows, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        List<String> lines = new ArrayList<>();
        lines.add(Row.CSV_HEADER);
        rows.forEach(r -> lines.add(r.csv()));
        Files.write(file, lines);
    }

    /** The rows of a CSV {@link #writeCsv} wrote. */
    public static List<Row> readCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !(lines.get(0).trim().equals(Row.CSV_HEADER) || lines.get(0).trim().equals(Row.CSV_HEADER_V1))) {
            throw new IOException(file + " is not a density CSV: its first line must be " + Row.CSV_HEADER);
        }
        return lines.subList(1, lines.size()).stream().filter(l -> !l.isBlank()).map(Row::parse).toList();
    }

    public ProcessResources process() {
        return process;
    }

    String tenantId(int n) {
        return String.format(Locale.ROOT, "%s%05d", prefix, n);
    }

    /** Tenants {@code from+1 .. to}, by {@code clients} threads. */
    private void provision(int from, int to) throws InterruptedException, IOException {
        if (to <= from) {
            return;
        }
        AtomicInteger next = new AtomicInteger(from + 1);
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Void>> workers = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                workers.add(pool.submit(() -> {
                    for (int n = next.getAndIncrement(); n <= to; n = next.getAndIncrement()) {
                        provisionOne(tenantId(n));
                    }
                    return null;
                }));
            }
            for (Future<Void> worker : workers) {
                try {
                    worker.get();
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IOException("provisioning failed: " + e.getCause().getMessage(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private void provisionOne(String tenant) throws IOException, InterruptedException {
        http.createTenant(adminToken, tenant, "Density " + tenant);
        String writer = tokens.mint("density-bench", tenant, List.of("writer"), Duration.ofMinutes(10), Map.of());
        String document = "{\"id\":\"note\",\"text\":\"" + String.format(DOCUMENT, tenant) + "\"}";
        HttpResponse<String> ingested = http.send(http.post("api/v1/tenants/" + tenant + "/documents", writer, document));
        if (ingested.statusCode() != 201 && ingested.statusCode() != 200) {
            throw new IOException("ingesting into tenant " + tenant + ": HTTP " + ingested.statusCode() + " " + ingested.body());
        }
    }

    /** One hybrid retrieval (query embedding included), timed from the client. */
    double retrieveMillis(String tenant) throws IOException, InterruptedException {
        return retrieveMillis(tenant, tokens.mint("density-bench", tenant, List.of("reader"), Duration.ofMinutes(10), Map.of()));
    }

    private double retrieveMillis(String tenant, String reader) throws IOException, InterruptedException {
        long start = System.nanoTime();
        HttpResponse<String> response = http.send(http.post("api/v1/tenants/" + tenant + "/retrieve", reader, "{\"query\":\"quarterly revenue report\"}"));
        double millis = (System.nanoTime() - start) / 1e6;
        if (response.statusCode() != 200 || !response.body().contains("\"note")) {
            throw new IOException("retrieve on tenant " + tenant + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return millis;
    }
}
