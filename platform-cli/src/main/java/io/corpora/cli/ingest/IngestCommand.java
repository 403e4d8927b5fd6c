package io.corpora.cli.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.ServerTask;
import io.corpora.cli.ServerToken;
import io.corpora.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@code corpora ingest}: uploads a folder tree (or one file) to a tenant through the REST API in batches, each a
 * server-side job it follows to the end, with a live progress line. Files already stored unchanged by an earlier run
 * are skipped (resume), and the exit code is non-zero when any file failed, each listed with the server's reason.
 */
public final class IngestCommand implements Command {

    private static final Map<String, String> MEDIA_TYPES = Map.of("md", "text/markdown", "markdown", "text/markdown",
            "txt", "text/plain", "html", "text/html", "htm", "text/html", "pdf", "application/pdf", "json", "application/json",
            "jsonl", "application/x-ndjson", "ndjson", "application/x-ndjson", "csv", "text/csv");

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
            .followRedirects(HttpClient.Redirect.NEVER).build();

    @Override
    public String name() {
        return "ingest";
    }

    @Override
    public String summary() {
        return "upload a folder tree to a tenant with progress and resume";
    }

    @Override
    public String usage() {
        return """
                usage: corpora ingest <dir|file> --tenant T [options]
                  --server URL         the Corpora server; default http://localhost:9080
                  --token JWT          a writer token (or --token-file FILE); default $CORPORA_TOKEN, else a DEVELOPMENT
                                       token minted locally with --key FILE (default: the repository's development key)
                  --partition P        the tenant partition to ingest into
                  --batch N            files per upload job; default 16
                  --batch-mb N         megabytes per upload job at most (a larger file goes alone); default 32, within
                                       the server's request limit (corpora.ingest.maxRequestBytes, default 100 MiB)
                  --ahead N            batches uploaded while an earlier one still runs; default 2 (0: one job at a time)
                  --state FILE         resume file; default ~/.cache/corpora/ingest/<server+tenant+folder>.tsv
                  --timeout MINUTES    how long to follow one job; default 30
                  --retries N          rounds sending again the files that failed for a passing reason (the server
                                       running the job stopped, a concurrent write, a migration, 429 or 503, a proxy's
                                       502 or 504), 2 s, 4 s … apart; default 2 (0: none)
                Files already stored unchanged by an earlier run are skipped. Exit code 1 lists every failed file.""";
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws Exception {
        if (args.isEmpty() || args.get(0).startsWith("--")) {
            throw new UsageException("give the folder or file to ingest first");
        }
        Path root = Path.of(args.get(0)).toAbsolutePath().normalize();
        Options options = Options.parse(args.subList(1, args.size()),
                union(Set.of("tenant", "server", "partition", "batch", "batch-mb", "ahead", "state", "timeout", "retries"), ServerToken.OPTIONS), Set.of());
        String tenant = options.requireString("tenant");
        URI server = URI.create(options.string("server", "http://localhost:9080").replaceAll("/+$", "") + "/");
        int batchSize = options.integer("batch", 16, 1, 500);
        long batchBytes = options.integer("batch-mb", 32, 1, 4096) * 1024L * 1024L;
        int ahead = options.integer("ahead", 2, 0, 8);
        Duration jobTimeout = Duration.ofMinutes(options.integer("timeout", 30, 1, 24 * 60));
        int retries = options.integer("retries", 2, 0, 10);
        String partition = options.string("partition", null);
        String token = ServerToken.resolve(options, "ingest", tenant, "writer", partition == null ? Map.of() : Map.of("partition", partition), err);
        if (!Files.exists(root)) {
            throw new UsageException(root + " does not exist");
        }
        List<Path> files = files(root);
        Path stateFile = options.path("state", defaultStateFile(server, tenant, partition, root));
        IngestState state = new IngestState(stateFile);

        List<Upload> pending = new ArrayList<>();
        int unchanged = 0;
        for (Path file : files) {
            String relative = root.equals(file) ? file.getFileName().toString() : root.relativize(file).toString().replace('\\', '/');
            String sha = sha256(file);
            if (state.alreadyStored(relative, sha)) {
                unchanged++;
            } else {
                pending.add(new Upload(file, relative, sha, Files.size(file)));
            }
        }
        out.printf("corpora ingest: %d files under %s; %d already stored (resume state %s), %d to upload to tenant %s%n",
                files.size(), root, unchanged, stateFile, pending.size(), tenant);

        ProgressLine progress = new ProgressLine(err, pending.size());
        Tally tally = new Tally(state);
        // Batches are uploaded ahead while an earlier one runs, so the server never waits for this client to notice a
        // finished job (polling backs off up to 2 s) and upload the next.
        send(pending, server, tenant, token, partition, batchSize, batchBytes, ahead, jobTimeout, tally, progress);
        progress.finish();
        for (int round = 1; round <= retries && !tally.passing.isEmpty(); round++) {
            List<Upload> again = tally.passing.stream().map(PassingFailure::upload).toList();
            out.printf("corpora ingest: sending %d files again (round %d of %d) that failed for a passing reason: %s%n",
                    again.size(), round, retries, tally.passingKinds());
            tally.passing.clear();
            Thread.sleep(Math.min(30_000L, 1000L << round));
            tally.done -= again.size(); // counted again as they finish
            ProgressLine againProgress = new ProgressLine(err, pending.size());
            send(again, server, tenant, token, partition, batchSize, batchBytes, ahead, jobTimeout, tally, againProgress);
            againProgress.finish();
        }
        tally.passing.forEach(f -> tally.failures.add(f.message()));
        out.printf("corpora ingest: %d stored, %d unchanged on the server, %d skipped by resume, %d failed%n",
                tally.stored, tally.skipped, unchanged, tally.failures.size());
        if (!tally.failures.isEmpty()) {
            err.println("failed files:");
            tally.failures.forEach(f -> err.println("  " + f));
            return 1;
        }
        return 0;
    }

    /** Uploads the files in batches as jobs, {@code ahead} batches running while an earlier one is followed to its end. */
    private void send(List<Upload> uploads, URI server, String tenant, String token, String partition, int batchSize, long batchBytes,
                      int ahead, Duration jobTimeout, Tally tally, ProgressLine progress) throws IOException, InterruptedException {
        java.util.ArrayDeque<Submitted> running = new java.util.ArrayDeque<>();
        for (List<Upload> batch : UploadBatches.of(uploads, Upload::bytes, batchSize, batchBytes)) {
            running.add(submitOrFail(server, tenant, token, partition, batch));
            if (running.size() > ahead) {
                tally.collect(running.poll(), token, jobTimeout);
                progress.show(tally.done, tally.chunks);
            }
        }
        while (!running.isEmpty()) {
            tally.collect(running.poll(), token, jobTimeout);
            progress.show(tally.done, tally.chunks);
        }
    }

    /**
     * Whether a document refused with {@code status} and problem {@code kind} may be stored if sent again unchanged: its
     * job's server stopped, another write or a migration held it, the server was overloaded, a proxy found no server, or
     * the connection closed unanswered. Sending a file again is safe: one stored unchanged meanwhile is skipped.
     */
    static boolean passing(int status, String kind) {
        return status == 429 || status == 502 || status == 503 || status == 504
                || Set.of("job-interrupted", "concurrent-write", "migration-in-progress", NO_ANSWER).contains(kind);
    }

    /** The kind of a failure without an HTTP answer: the connection failed or was closed (a server that died). */
    static final String NO_ANSWER = "no-answer";

    private record Upload(Path file, String relative, String sha256, long bytes) {}

    /** A file that failed for a passing reason: sent again in the next round, else listed with {@code message}. */
    private record PassingFailure(Upload upload, String kind, String message) {}

    /** A batch uploaded as a job, or refused (every file of it then fails with the reason). */
    private record Submitted(List<Upload> batch, URI job, UploadException refused) {}

    private Submitted submitOrFail(URI server, String tenant, String token, String partition, List<Upload> batch)
            throws IOException, InterruptedException {
        try {
            return new Submitted(batch, submit(server, tenant, token, partition, batch), null);
        } catch (UploadException e) {
            return new Submitted(batch, null, e);
        } catch (IOException e) { // the connection failed or closed unanswered: the job may or may not exist
            return new Submitted(batch, null, new UploadException("upload got no answer: " + e, 0, NO_ANSWER));
        }
    }

    /** What the finished batches came to; stored files are marked in the resume state as their job reports them. */
    private final class Tally {
        private final IngestState state;
        private final List<String> failures = new ArrayList<>();
        private final List<PassingFailure> passing = new ArrayList<>();
        private int done;
        private long chunks;
        private int stored;
        private int skipped;

        Tally(IngestState state) {
            this.state = state;
        }

        void collect(Submitted submitted, String token, Duration jobTimeout) throws IOException, InterruptedException {
            List<Upload> batch = submitted.batch();
            try {
                if (submitted.refused() != null) {
                    throw submitted.refused();
                }
                JsonNode outcomes = ServerTask.longPolled(http, submitted.job()).follow(token, jobTimeout, state -> {}).get("outcomes");
                for (int i = 0; i < batch.size(); i++) {
                    Upload upload = batch.get(i);
                    JsonNode outcome = outcomes != null && i < outcomes.size() ? outcomes.get(i) : null;
                    if (outcome == null) {
                        failed(upload, 0, "", "no outcome reported");
                        continue;
                    }
                    String result = outcome.get("result").asText();
                    if (result.equals("failed")) {
                        int status = outcome.get("status").asInt();
                        String kind = ServerTask.kindOf(outcome.path("type").asText("")); // "" from a server that sends none
                        failed(upload, status, kind, status + (kind.isEmpty() ? "" : " " + kind) + " " + outcome.path("error").asText());
                    } else {
                        state.markStored(upload.relative(), upload.sha256());
                        chunks += outcome.get("chunks").asLong();
                        if (result.equals("skipped")) {
                            skipped++;
                        } else {
                            stored++;
                        }
                    }
                }
            } catch (UploadException e) {
                batch.forEach(u -> failed(u, e.status, e.kind, e.getMessage()));
            } catch (ServerTask.Failure e) { // the server refused a look or the job outlived the timeout: it may still run
                batch.forEach(u -> failures.add(u.relative() + ": " + e.getMessage()));
            } catch (IOException e) { // a look got no answer: sending the files again is safe, an unchanged one is skipped
                batch.forEach(u -> failed(u, 0, NO_ANSWER, "following its job got no answer: " + e));
            }
            done += batch.size();
        }

        private void failed(Upload upload, int status, String kind, String message) {
            if (passing(status, kind)) {
                passing.add(new PassingFailure(upload, kind.isEmpty() ? String.valueOf(status) : kind, upload.relative() + ": " + message));
            } else {
                failures.add(upload.relative() + ": " + message);
            }
        }

        /** "concurrent-write: 2, job-interrupted: 10". */
        String passingKinds() {
            Map<String, Integer> counts = new java.util.TreeMap<>();
            passing.forEach(f -> counts.merge(f.kind(), 1, Integer::sum));
            return String.join(", ", counts.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList());
        }
    }

    /** Thrown when a batch cannot be submitted or followed; every file of the batch is reported with the reason. */
    private static final class UploadException extends Exception {
        private static final long serialVersionUID = 1L;
        /** The server's (or a proxy's) status and problem kind; 0 and "" when there was no answer to read. */
        final int status;
        final String kind;

        UploadException(String message) {
            this(message, 0, "");
        }

        UploadException(String message, int status, String kind) {
            super(message);
            this.status = status;
            this.kind = kind;
        }
    }

    private URI submit(URI server, String tenant, String token, String partition, List<Upload> batch) throws IOException, InterruptedException, UploadException {
        String boundary = "corpora-" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (partition != null) {
            part(body, boundary, "partition", null, "text/plain", partition.getBytes(StandardCharsets.UTF_8));
        }
        for (Upload upload : batch) {
            part(body, boundary, "file", upload.relative(), mediaType(upload.relative()), Files.readAllBytes(upload.file()));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        HttpRequest request = HttpRequest.newBuilder(server.resolve("api/v1/tenants/" + tenant + "/documents"))
                .timeout(Duration.ofMinutes(5)).header("Authorization", "Bearer " + token)
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 202) {
            throw new UploadException("upload refused: " + ServerTask.problem(response.statusCode(), response.body()), response.statusCode(),
                    ServerTask.problemKind(response.body()));
        }
        String location = response.headers().firstValue("Location").orElseThrow(() -> new UploadException("202 without a Location"));
        return server.resolve(URI.create(location).getPath().replaceFirst("^/", ""));
    }

    private static void part(ByteArrayOutputStream body, String boundary, String name, String fileName, String type, byte[] content) {
        StringBuilder head = new StringBuilder("--").append(boundary).append("\r\nContent-Disposition: form-data; name=\"").append(name).append('"');
        if (fileName != null) {
            head.append("; filename=\"").append(fileName.replace("\"", "_")).append('"');
        }
        head.append("\r\nContent-Type: ").append(type).append("\r\n\r\n");
        body.writeBytes(head.toString().getBytes(StandardCharsets.UTF_8));
        body.writeBytes(content);
        body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
    }


    static String mediaType(String fileName) {
        int dot = fileName.lastIndexOf('.');
        String extension = dot < 0 ? "" : fileName.substring(dot + 1).toLowerCase(Locale.ROOT);
        return MEDIA_TYPES.getOrDefault(extension, "application/octet-stream");
    }

    private static List<Path> files(Path root) throws IOException {
        if (Files.isRegularFile(root)) {
            return List.of(root);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> root.relativize(p).toString().chars().noneMatch(c -> c == 0))
                    .filter(p -> {
                        for (Path segment : root.relativize(p)) {
                            if (segment.toString().startsWith(".")) {
                                return false; // hidden files and folders (.git, .DS_Store …)
                            }
                        }
                        return true;
                    })
                    .sorted().toList();
        }
    }

    private static Path defaultStateFile(URI server, String tenant, String partition, Path root) {
        String key = sha256(server + "\n" + tenant + "\n" + partition + "\n" + root).substring(0, 16);
        return Path.of(System.getProperty("user.home"), ".cache", "corpora", "ingest", tenant + "-" + key + ".tsv");
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return all;
    }

    private static String sha256(Path file) throws IOException {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            try (var in = Files.newInputStream(file)) {
                byte[] buffer = new byte[64 * 1024];
                for (int n; (n = in.read(buffer)) > 0; ) {
                    digest.update(buffer, 0, n);
                }
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

}
