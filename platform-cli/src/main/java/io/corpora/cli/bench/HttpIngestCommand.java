package io.corpora.cli.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.cli.eval.BeirDataset;
import io.corpora.cli.ingest.IngestCommand;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.security.DevTokenMinter;
import io.corpora.spi.Chunk;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code corpora bench ingest-http}: the whole ingest as a user runs it — {@code corpora ingest} of a folder into a
 * running server (HTTP upload, jobs, loading, chunking, embedding, store and control-plane writes) — against the raw
 * bundled embedder on the very chunk texts the server embedded, read back from the server afterwards (each chunk's index
 * text: title and heading path before its text) and embedded in this process, one document per call as the server's
 * pipeline calls it, from {@code --callers} threads, right after the ingest. Optionally writes a BEIR corpus as one
 * Markdown file per document first, and reads the server's CPU time during the ingest from {@code /proc}.
 */
final class HttpIngestCommand implements Command {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The bundled embedder's worker threads, as {@link ThreadCpu} groups them. */
    private static final String EMBEDDER_THREADS = "embedder-onnx";
    /** How often the server's threads are read during the ingest. */
    private static final long SAMPLE_MILLIS = 250;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @Override
    public String name() {
        return "bench";
    }

    @Override
    public String summary() {
        return "the whole ingest through a running server against the raw embedder on the same chunk texts";
    }

    @Override
    public String usage() {
        return """
                usage: corpora bench ingest-http --files DIR --tenant T [options]
                  --files DIR          the folder to ingest, as `corpora ingest DIR`
                  --from-dataset DIR   first write this BEIR corpus into --files, one Markdown file per document ("# title", text)
                  --limit N            with --from-dataset: the first N documents only
                  --tenant T           the tenant to ingest into (it should start empty: documents already stored are skipped)
                  --server URL         default http://localhost:9080/
                  --pid PID            the server's JVM: its CPU time during the ingest by kind of thread, read from /proc/PID every 250 ms
                  --callers N          threads calling the raw embedder; default 2 (the bundled embedder's workers)
                  --ahead N            the ingest's batches uploaded ahead (corpora ingest --ahead); default 2, as corpora ingest
                  --batch N            files per upload job (corpora ingest --batch); default as corpora ingest
                  --raw-passes N       passes of the raw embedder over the texts; the ratio is against the fastest (default 2)
                  --plugins DIR        plugin bundles (default platform-cli/target/plugins)
                  --key FILE           the development private key (the server must be in development mode)
                  --out DIR            results folder (default bench-results/ingest-http-<timestamp>)""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        Options options = Options.parse(args.subList(1, args.size()),
                Set.of("files", "from-dataset", "limit", "tenant", "server", "pid", "callers", "ahead", "batch", "raw-passes", "plugins", "key", "out"), Set.of());
        Path files = Path.of(options.requireString("files"));
        String tenant = options.requireString("tenant");
        String server = options.string("server", "http://localhost:9080/").replaceAll("/+$", "") + "/";
        int callers = options.integer("callers", 2, 1, 64);
        int ahead = options.integer("ahead", 2, 0, 8);
        Optional<String> batch = options.string("batch"); // passed on as given: corpora ingest checks it
        int rawPasses = options.integer("raw-passes", 2, 1, 10);
        Path key = Path.of(options.string("key", System.getProperty("corpora.dev.jwt.private.key", "platform-server/dev-jwt/private.pem")));
        Path plugins = options.path("plugins", Path.of(System.getProperty("corpora.plugins.dir", BenchCommand.DEFAULT_PLUGINS.toString())));
        Path outDir = options.path("out", Path.of("bench-results", "ingest-http-" + System.currentTimeMillis()));
        Long pid = options.string("pid").map(Long::parseLong).orElse(null);
        if (options.string("from-dataset").isPresent()) {
            int written = writeCorpus(Path.of(options.requireString("from-dataset")), files, options.integer("limit", Integer.MAX_VALUE, 1, Integer.MAX_VALUE));
            err.printf("bench: %d documents written as Markdown files under %s%n", written, files);
        }
        if (!Files.isDirectory(files)) {
            throw new UsageException("--files " + files + " is not a folder");
        }
        if (!Files.isRegularFile(key)) {
            throw new UsageException("development key " + key + " not found; pass --key");
        }
        Map<String, String> notes = new LinkedHashMap<>();
        notes.put("machine", Machine.describe());
        notes.put("load at start", Machine.load());

        // 1. The whole ingest, as `corpora ingest` runs it.
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadCpu serverBefore = pid == null ? null : ThreadCpu.of(pid);
        ThreadCpu.Tracker serverThreads = pid == null ? null : new ThreadCpu.Tracker(serverBefore);
        ScheduledExecutorService sampler = pid == null ? null : Executors.newSingleThreadScheduledExecutor(BenchCommand.daemonThreads("bench-thread-cpu"));
        if (sampler != null) {
            // Liberty retires idle request threads and Lucene ends a merge thread per merge: sampled often, their time
            // stays under their own names instead of the unnamed remainder.
            sampler.scheduleAtFixedRate(() -> {
                try {
                    serverThreads.observe(ThreadCpu.of(pid));
                } catch (IOException | UncheckedIOException missed) {
                    // one sample fewer: that time is reported as the remainder (ThreadCpu.ENDED)
                }
            }, SAMPLE_MILLIS, SAMPLE_MILLIS, TimeUnit.MILLISECONDS);
        }
        Machine.CpuTimes machineBefore = Machine.CpuTimes.now();
        double clientCpuBefore = os.getProcessCpuTime() / 1e9;
        long start = System.nanoTime();
        List<String> ingestArgs = new ArrayList<>(List.of(files.toString(), "--tenant", tenant, "--server", server, "--key", key.toString(),
                "--ahead", String.valueOf(ahead), "--state", Files.createTempFile("corpora-ingest-http-", ".tsv").toString()));
        batch.ifPresent(n -> ingestArgs.addAll(List.of("--batch", n)));
        int status;
        try {
            status = new IngestCommand().run(ingestArgs, out, err);
        } finally {
            if (sampler != null) {
                sampler.shutdownNow();
            }
        }
        double ingestSeconds = (System.nanoTime() - start) / 1e9;
        double clientCpu = os.getProcessCpuTime() / 1e9 - clientCpuBefore;
        double ingestCoresBusy = Machine.CpuTimes.now().coresBusySince(machineBefore);
        ThreadCpu serverAfter = pid == null ? null : ThreadCpu.of(pid);
        if (serverThreads != null) {
            serverThreads.observe(serverAfter);
        }
        double serverCpu = pid == null ? Double.NaN : serverAfter.processSeconds() - serverBefore.processSeconds();
        notes.put("load after the ingest", Machine.load());
        if (status != 0) {
            throw new IllegalStateException("the ingest failed (exit " + status + "); see the files it listed");
        }

        // 2. The chunk texts the server embedded, read back.
        String reader = DevTokenMinter.fromPem(key).mint("ingest-http-bench", tenant, List.of("reader"), Duration.ofHours(2), Map.of());
        List<List<String>> documents = indexTexts(URI.create(server), tenant, reader);
        int chunks = documents.stream().mapToInt(List::size).sum();

        // 3. The raw embedder on those texts, in this process.
        PluginRegistry registry = PluginManager.load(plugins);
        Path work = Files.createTempDirectory("corpora-ingest-http-");
        // The embedder alone varies from pass to pass on a shared machine: the ratio is taken against its fastest pass.
        double rawSeconds = Double.POSITIVE_INFINITY;
        double rawCpu = Double.NaN;
        double rawCoresBusy = Double.NaN;
        List<String> rawRuns = new ArrayList<>();
        try (Embedder model = registry.create(EmbedderProvider.class, "onnx", BenchCommand.context(work, "embedder"), Map.of())) {
            documents.stream().limit(8).forEach(model::embedDocuments); // warm-up, unmeasured
            for (int pass = 0; pass < rawPasses; pass++) {
                double cpuBefore = os.getProcessCpuTime() / 1e9;
                Machine.CpuTimes passBefore = Machine.CpuTimes.now();
                long rawStart = System.nanoTime();
                IngestThroughput.runOnThreads(documents.size(), callers, i -> model.embedDocuments(documents.get(i)), "the raw embedder failed");
                double seconds = (System.nanoTime() - rawStart) / 1e9;
                double cpu = os.getProcessCpuTime() / 1e9 - cpuBefore;
                double coresBusy = Machine.CpuTimes.now().coresBusySince(passBefore);
                rawRuns.add(String.format(Locale.ROOT, "%.2f chunks/s (%.1f ms CPU per chunk)", chunks / seconds, 1000 * cpu / chunks));
                if (seconds < rawSeconds) {
                    rawSeconds = seconds;
                    rawCpu = cpu;
                    rawCoresBusy = coresBusy;
                }
            }
        } finally {
            BenchCommand.deleteRecursively(work);
        }
        notes.put("load at end", Machine.load());

        StringBuilder summary = new StringBuilder();
        notes.forEach((k, v) -> summary.append(k).append(": ").append(v).append('\n'));
        summary.append(String.format(Locale.ROOT, "%nwhole ingest (corpora ingest %s --ahead %d%s into tenant %s): %d documents, %d chunks in %.1f s"
                + " = %.2f chunks/s%n", files, ahead, batch.map(n -> " --batch " + n).orElse(""), tenant, documents.size(), chunks, ingestSeconds, chunks / ingestSeconds));
        summary.append(String.format(Locale.ROOT, "raw embedder, same %d chunk texts, one document per call, %d callers, %d passes: %s%n",
                chunks, callers, rawPasses, String.join("; ", rawRuns)));
        summary.append(String.format(Locale.ROOT, "ingest / raw embedder (its fastest pass, %.2f chunks/s): %.0f %%%n", chunks / rawSeconds,
                100 * rawSeconds / ingestSeconds));
        if (pid != null) {
            summary.append(String.format(Locale.ROOT, "CPU per chunk: server %.1f ms during the ingest, raw embedder %.1f ms: the server's own cost %.0f %% of"
                    + " the embedder's%n", 1000 * serverCpu / chunks, 1000 * rawCpu / chunks, 100 * (serverCpu - rawCpu) / rawCpu));
            // The ratio is one of throughputs on a shared machine: where the cores went tells what else competed.
            summary.append(String.format(Locale.ROOT, "cores busy (of %d): %.2f during the ingest (the server %.2f, this client %.2f, anything"
                    + " else %.2f), %.2f during the raw embedder's fastest pass%n", Runtime.getRuntime().availableProcessors(), ingestCoresBusy,
                    serverCpu / ingestSeconds, clientCpu / ingestSeconds, ingestCoresBusy - (serverCpu + clientCpu) / ingestSeconds, rawCoresBusy));
            Map<String, Double> byKind = serverThreads.spentByKind();
            // The bundled embedder's workers, measured in the ingest itself: the pipeline's cost against the embedder's
            // own time under the same conditions, whatever the machine's speed did between the ingest and the raw pass.
            double embedderThreads = byKind.getOrDefault(EMBEDDER_THREADS, Double.NaN);
            summary.append(String.format(Locale.ROOT, "the server beside its embedder threads (%s): %.1f ms per chunk, %.0f %% of their %.1f ms"
                    + " (issue 19's bound: 10 %%)%n", EMBEDDER_THREADS, 1000 * (serverCpu - embedderThreads) / chunks,
                    100 * (serverCpu - embedderThreads) / embedderThreads, 1000 * embedderThreads / chunks));
            summary.append("the server's CPU during the ingest by kind of thread, ms per chunk:\n");
            byKind.forEach((kind, seconds) -> {
                if (seconds * 1000 / chunks >= 0.05) {
                    summary.append(String.format(Locale.ROOT, "  %-24s %6.2f%n", kind, 1000 * seconds / chunks));
                }
            });
        }
        out.print(summary);
        Files.createDirectories(outDir);
        Files.writeString(outDir.resolve("summary.txt"), summary);
        err.println("bench: results in " + outDir.toAbsolutePath());
        return 0;
    }

    /** Writes each document as {@code <id>.md}: a title heading, then the text; returns how many. */
    static int writeCorpus(Path dataset, Path files, int limit) throws IOException {
        Files.createDirectories(files);
        int[] written = {0};
        IOException[] failure = {null};
        BeirDataset.open(dataset, "test").forEachDocument(document -> {
            if (written[0] >= limit || failure[0] != null) {
                return;
            }
            String body = (document.title().isBlank() ? "" : "# " + document.title().strip() + "\n\n") + document.text().strip() + "\n";
            try {
                Files.writeString(files.resolve(document.id().replaceAll("[^A-Za-z0-9._-]", "_") + ".md"), body);
                written[0]++;
            } catch (IOException e) {
                failure[0] = e;
            }
        });
        if (failure[0] != null) {
            throw failure[0];
        }
        return written[0];
    }

    /** Every document's chunks as the server embedded them: the contextualizer's index text of each stored chunk. */
    private List<List<String>> indexTexts(URI server, String tenant, String token) throws IOException, InterruptedException {
        HeadingContextualizer contextualizer = new HeadingContextualizer();
        List<List<String>> documents = new ArrayList<>();
        String after = null;
        do {
            JsonNode page = get(server, "api/v1/tenants/" + tenant + "/documents?limit=500" + (after == null ? "" : "&after=" + encode(after)), token);
            for (JsonNode document : page.get("documents")) {
                String id = document.get("id").asText();
                List<String> texts = new ArrayList<>();
                for (JsonNode view : get(server, "api/v1/tenants/" + tenant + "/document/chunks?id=" + encode(id), token).get("chunks")) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> metadata = JSON.convertValue(view.get("metadata"), Map.class);
                    List<String> headings = new ArrayList<>();
                    view.get("headingPath").forEach(h -> headings.add(h.asText()));
                    texts.add(contextualizer.indexText(new Chunk(view.get("id").asText(), id, view.get("index").asInt(), view.get("text").asText(),
                            headings, metadata)));
                }
                documents.add(texts);
            }
            after = page.get("next").isNull() ? null : page.get("next").asText();
        } while (after != null);
        return documents;
    }

    private JsonNode get(URI server, String path, String token) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(server.resolve(path)).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + path + ": HTTP " + response.statusCode() + " " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
