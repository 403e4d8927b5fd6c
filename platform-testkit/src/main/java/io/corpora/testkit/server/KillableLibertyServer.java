package io.corpora.testkit.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.testkit.Poll;
import io.corpora.testkit.TestFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Liberty server of its own, run from the build's runtime as a child process so a test can SIGKILL its JVM and start
 * it again on the same data directory. Arquillian's managed container cannot do that mid-test.
 *
 * <p>The server directory is made from the one liberty-maven-plugin created (server.xml, JDBC drivers), with its own
 * name, HTTP port, data directory and JVM options, and the build's WAR in dropins. That created server configures no
 * token verification: the caller's JVM options choose development mode ({@link #DEVELOPMENT_MODE}) or a key and issuer.
 */
public final class KillableLibertyServer implements AutoCloseable {

    /** How long a start may take: -Dcorpora.liberty.start.timeout seconds (default 180; a loaded shared machine needs more). */
    private static final Duration START_TIMEOUT = Duration.ofSeconds(Long.getLong("corpora.liberty.start.timeout", 180));
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The JVM option that makes the server trust the development key, as the tests' tokens need. */
    public static final String DEVELOPMENT_MODE = "-Dcorpora.dev.mode=true";

    private final Path wlp;
    private final String name;
    private final int port;
    private final Path logs;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private Process process;
    private int starts;

    private KillableLibertyServer(Path wlp, String name, int port, Path logs) {
        this.wlp = wlp;
        this.name = name;
        this.port = port;
        this.logs = logs;
    }

    /**
     * Creates (or re-creates) server {@code name} next to the build's server, with its data under {@code dataDir} and
     * {@code jvmOptions} (e.g. {@link #DEVELOPMENT_MODE}) besides the ones every test server has. Nothing is started yet.
     */
    public static KillableLibertyServer create(String name, int port, Path dataDir, Path logs, List<String> jvmOptions) throws IOException {
        Path wlp = Path.of(System.getProperty("corpora.liberty.wlp", "target/liberty/wlp")).toAbsolutePath();
        Path template = wlp.resolve("usr/servers").resolve(System.getProperty("corpora.liberty.server.name", "corpora"));
        Path plugins = Path.of(System.getProperty("corpora.plugins.dir", "target/plugins")).toAbsolutePath();
        Path war = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath();
        for (Path required : List.of(template.resolve("server.xml"), template.resolve("jdbc"), plugins, war)) {
            if (!Files.exists(required)) {
                throw new IllegalStateException(required + " is missing: run the build's pre-integration-test phase (mvn verify) first");
            }
        }
        Path server = wlp.resolve("usr/servers").resolve(name);
        TestFiles.deleteTree(server);
        TestFiles.deleteTree(dataDir);
        Files.createDirectories(server.resolve("dropins"));
        Files.createDirectories(dataDir);
        Files.createDirectories(logs);
        Files.copy(template.resolve("server.xml"), server.resolve("server.xml"));
        TestFiles.copyTree(template.resolve("jdbc"), server.resolve("jdbc"), StandardCopyOption.REPLACE_EXISTING);
        Files.copy(war, server.resolve("dropins/corpora.war"));
        String data = dataDir.toAbsolutePath().toString();
        // server.xml reads corpora.data.dir as a Liberty variable (H2 file), the application through MicroProfile Config.
        Files.writeString(server.resolve("bootstrap.properties"), "http.port=" + port + "\ncorpora.data.dir=" + data + "\n");
        // Startup speed on a shared CI machine: no OpenAPI scan of the WAR, no C2 compilation (ONNX inference is native).
        List<String> options = new ArrayList<>(List.of("-Dcorpora.plugins.dir=" + plugins, "-Dcorpora.data.dir=" + data,
                "-Dmp.openapi.scan.disable=true", "-XX:TieredStopAtLevel=1", "-Xmx1g"));
        options.addAll(jvmOptions);
        Files.writeString(server.resolve("jvm.options"), String.join("\n", options) + "\n");
        KillableLibertyServer created = new KillableLibertyServer(wlp, name, port, logs);
        Runtime.getRuntime().addShutdownHook(new Thread(created::close, "kill " + name)); // never outlive the test JVM
        return created;
    }

    public URI baseUri() {
        return URI.create("http://localhost:" + port + "/");
    }

    /** Starts the server ({@code server run}, in the foreground of a child process) and waits until the application answers. */
    public void start() throws IOException, InterruptedException {
        Path console = launch();
        Poll.until("server " + name + " ready; see " + console, START_TIMEOUT, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("server " + name + " exited with " + process.exitValue() + " while starting; see " + console);
            }
            return answers("health/ready") && answers("console/index.html"); // the feature, then the WAR itself
        });
    }

    /**
     * Starts the server the first time without waiting for the application to answer, and waits until Liberty has either
     * started it or not ({@code CWWKZ0001I}, or {@code CWWKZ0012I} / {@code CWWKZ0002E} in messages.log); returns whether it started.
     */
    public boolean startApplication() throws IOException, InterruptedException {
        Path console = launch();
        return Poll.until("server " + name + " started or failed the application; see " + console, START_TIMEOUT, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("server " + name + " exited with " + process.exitValue() + " while starting; see " + console);
            }
            String log = messages();
            // A failed application is reported before the HTTP port opens; the server is ready (CWWKF0011I) only after.
            if ((log.contains("CWWKZ0012I") || log.contains("CWWKZ0002E")) && log.contains("CWWKF0011I")) {
                return Optional.of(false);
            }
            return log.contains("CWWKZ0001I") ? Optional.of(true) : Optional.<Boolean>empty();
        });
    }

    private Path launch() throws IOException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("server " + name + " is already running");
        }
        requirePortFree();
        starts++;
        Path console = logs.resolve("console-" + starts + ".log");
        ProcessBuilder builder = serverScript("run", console);
        builder.environment().remove("CORPORA_DEV_MODE"); // development mode only when the JVM options say so
        process = builder.start();
        return console;
    }

    /** Liberty's {@code bin/server <action>} for this server, on this JVM's Java, its output to {@code output}. */
    private ProcessBuilder serverScript(String action, Path output) {
        ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), action, name)
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        return builder;
    }

    /** Stops the server cleanly ({@code server stop}): the application's shutdown runs, unlike {@link #killJvm()}. */
    public void stop() throws IOException, InterruptedException {
        Process stopping = serverScript("stop", logs.resolve("stop-" + starts + ".log")).start();
        if (!stopping.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || !process.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            stopping.destroyForcibly();
            throw new IllegalStateException("server " + name + " did not stop within " + START_TIMEOUT + "; see " + logs);
        }
    }

    /**
     * Restarts the application inside the running server, as a redeploy does: the WAR in dropins is touched, Liberty
     * stops the application (its shutdown runs; the server and its connection pools stay) and starts it again. Returns
     * whether it came back ({@code CWWKZ0003I}) and answers; false when Liberty reports it could not start it
     * ({@code CWWKZ0020I} "not updated", or {@code CWWKZ0002E}).
     */
    public boolean restartApplication() throws IOException, InterruptedException {
        String before = messages();
        long updatedBefore = count(before, "CWWKZ0003I");
        long failedBefore = count(before, "CWWKZ0020I") + count(before, "CWWKZ0002E");
        Path war = wlp.resolve("usr/servers").resolve(name).resolve("dropins/corpora.war");
        Files.setLastModifiedTime(war, FileTime.fromMillis(System.currentTimeMillis()));
        boolean restarted = Poll.until("application of " + name + " restarted or failed; see " + messagesLog(), START_TIMEOUT, () -> {
            String log = messages();
            if (count(log, "CWWKZ0020I") + count(log, "CWWKZ0002E") > failedBefore) {
                return Optional.of(false);
            }
            return count(log, "CWWKZ0003I") > updatedBefore ? Optional.of(true) : Optional.<Boolean>empty();
        });
        if (restarted) {
            Poll.until("application of " + name + " answering again; see " + messagesLog(), START_TIMEOUT,
                    () -> answers("health/ready") && answers("console/index.html"));
        }
        return restarted;
    }

    private static long count(String text, String messageId) {
        return text.lines().filter(line -> line.contains(messageId)).count();
    }

    /**
     * SIGKILLs the server's JVM (not the launch script): no shutdown hooks, no flush, no graceful close of Lucene or H2.
     * Returns once the JVM is gone.
     */
    public void killJvm() throws Exception {
        ProcessHandle java = serverJvm().orElseThrow(() -> new IllegalStateException("no java process under " + process.toHandle()));
        if (!java.destroyForcibly()) {
            throw new IllegalStateException("could not send SIGKILL to " + java.pid());
        }
        java.onExit().get(30, TimeUnit.SECONDS);
        if (java.isAlive()) {
            throw new IllegalStateException("JVM " + java.pid() + " survived SIGKILL");
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    /** The JVM running the server: the launch script's process itself if it exec'd java, else its java descendant. */
    public Optional<ProcessHandle> serverJvm() {
        ProcessHandle launched = process.toHandle();
        return Stream.concat(Stream.of(launched), launched.descendants())
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst();
    }

    public Path messagesLog() {
        return wlp.resolve("usr/servers").resolve(name).resolve("logs/messages.log");
    }

    /** The text of messages.log so far (JSON records, one a line); empty before the server wrote any. */
    public String messages() {
        try {
            return Files.exists(messagesLog()) ? Files.readString(messagesLog()) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The messages the server logged so far, decoded from messages.log's JSON records, with their levels. */
    public List<LogMessage> logMessages() {
        List<LogMessage> messages = new ArrayList<>();
        for (String line : messages().split("\n")) {
            if (line.startsWith("{")) {
                try {
                    JsonNode record = JSON.readTree(line);
                    messages.add(new LogMessage(record.path("loglevel").asText(), record.path("message").asText()));
                } catch (IOException e) {
                    // a record being written while we read; the next read has it whole
                }
            }
        }
        return messages;
    }

    public record LogMessage(String level, String text) {}

    /** Kills whatever still runs (a failed test must not leave a server behind). */
    @Override
    public void close() {
        if (process == null) {
            return;
        }
        process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private boolean answers(String path) {
        try {
            // A long timeout, never a short one: the readiness check holds a server thread while its probes run, and
            // requests the client gave up on keep theirs, so on a loaded machine short retries could starve the small
            // default pool (2 x cores) until no probe can run at all.
            HttpRequest request = HttpRequest.newBuilder(baseUri().resolve(path)).timeout(Duration.ofSeconds(120)).GET().build();
            return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void requirePortFree() {
        try (ServerSocket probe = new ServerSocket(port)) {
            probe.setReuseAddress(true);
        } catch (IOException e) {
            throw new IllegalStateException("port " + port + " is taken; pass another with -Dcorpora.crash.http.port", e);
        }
    }
}
