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
import java.util.Set;

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
    /** Linux's USER_HZ, the unit of the CPU times in {@code /proc/<pid>/stat}. */
    private static final double CLOCK_TICKS_PER_SECOND = 100;

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
                  --pid PID            the server's JVM: its CPU time during the ingest, from /proc/PID/stat
                  --callers N          threads calling the raw embedder; default 2 (the bundled embedder's workers)
                  --ahead N            the ingest's batches uploaded ahead (corpora ingest --ahead); default 1
                  --plugins DIR        plugin bundles (default platform-cli/target/plugins)
                  --key FILE           the development private key (the server must be in development mode)
                  --out DIR            results folder (default bench-results/ingest-http-<timestamp>)""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        Options options = Options.parse(args.subList(1, args.size()),
                Set.of("files", "from-dataset", "limit", "tenant", "server", "pid", "callers", "ahead", "plugins", "key", "out"), Set.of());
        Path files = Path.of(options.requireString("files"));
        String tenant = options.requireString("tenant");
        String server = options.string("server", "http://localhost:9080/").replaceAll("/+$", "") + "/";
        int callers = options.integer("callers", 2, 1, 64);
        int ahead = options.integer("ahead", 1, 0, 8);
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
        double serverCpuBefore = pid == null ? 0 : cpuSeconds(pid);
        long start = System.nanoTime();
        int status = new IngestCommand().run(List.of(files.toString(), "--tenant", tenant, "--server", server, "--key", key.toString(),
                "--ahead", String.valueOf(ahead), "--state", Files.createTempFile("corpora-ingest-http-", ".tsv").toString()), out, err);
        double ingestSeconds = (System.nanoTime() - start) / 1e9;
        double serverCpu = pid == null ? Double.NaN : cpuSeconds(pid) - serverCpuBefore;
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
        double rawSeconds;
        double rawCpu;
        try (Embedder model = registry.create(EmbedderProvider.class, "onnx", BenchCommand.context(work, "embedder"), Map.of())) {
            documents.stream().limit(8).forEach(model::embedDocuments); // warm-up, unmeasured
            com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            double cpuBefore = os.getProcessCpuTime() / 1e9;
            long rawStart = System.nanoTime();
            IngestThroughput.runOnThreads(documents.size(), callers, i -> model.embedDocuments(documents.get(i)), "the raw embedder failed");
            rawSeconds = (System.nanoTime() - rawStart) / 1e9;
            rawCpu = os.getProcessCpuTime() / 1e9 - cpuBefore;
        } finally {
            BenchCommand.deleteRecursively(work);
        }
        notes.put("load at end", Machine.load());

        StringBuilder summary = new StringBuilder();
        notes.forEach((k, v) -> summary.append(k).append(": ").append(v).append('\n'));
        summary.append(String.format(Locale.ROOT, "%nwhole ingest (corpora ingest %s --ahead %d into tenant %s): %d documents, %d chunks in %.1f s"
                + " = %.2f chunks/s%n", files, ahead, tenant, documents.size(), chunks, ingestSeconds, chunks / ingestSeconds));
        summary.append(String.format(Locale.ROOT, "raw embedder, same %d chunk texts, one document per call, %d callers: %.1f s = %.2f chunks/s%n",
                chunks, callers, rawSeconds, chunks / rawSeconds));
        summary.append(String.format(Locale.ROOT, "ingest / raw embedder: %.0f %%%n", 100 * rawSeconds / ingestSeconds));
        if (pid != null) {
            summary.append(String.format(Locale.ROOT, "CPU per chunk: server %.1f ms during the ingest, raw embedder %.1f ms: the server's own cost %.0f %% of"
                    + " the embedder's%n", 1000 * serverCpu / chunks, 1000 * rawCpu / chunks, 100 * (serverCpu - rawCpu) / rawCpu));
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

    /** The process's user + system CPU seconds, from {@code /proc/<pid>/stat} (fields 14 and 15, after the command name). */
    static double cpuSeconds(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / CLOCK_TICKS_PER_SECOND;
    }
}
