package io.corpora.server.crash;

import io.corpora.server.Poll;
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
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Liberty server of its own, run from the build's runtime as a child process so a test can SIGKILL its JVM and start
 * it again on the same data directory. Arquillian's managed container cannot do that mid-test.
 *
 * <p>The server directory is made from the one liberty-maven-plugin created (server.xml, dev-jwt keys, JDBC drivers),
 * with its own name, HTTP port and data directory, and the build's WAR in dropins.
 */
final class KillableLibertyServer implements AutoCloseable {

    private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

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
     * Creates (or re-creates) server {@code name} next to the build's server, with its data under {@code dataDir}.
     * Nothing is started yet.
     */
    static KillableLibertyServer create(String name, int port, Path dataDir, Path logs) throws IOException {
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
        deleteRecursively(server);
        deleteRecursively(dataDir);
        Files.createDirectories(server.resolve("dropins"));
        Files.createDirectories(dataDir);
        Files.createDirectories(logs);
        Files.copy(template.resolve("server.xml"), server.resolve("server.xml"));
        copyTree(template.resolve("dev-jwt"), server.resolve("dev-jwt"));
        copyTree(template.resolve("jdbc"), server.resolve("jdbc"));
        Files.copy(war, server.resolve("dropins/corpora.war"));
        String data = dataDir.toAbsolutePath().toString();
        // server.xml reads corpora.data.dir as a Liberty variable (H2 file), the application through MicroProfile Config.
        Files.writeString(server.resolve("bootstrap.properties"), "http.port=" + port + "\ncorpora.data.dir=" + data + "\n");
        // Startup speed on a shared CI machine: no OpenAPI scan of the WAR, no C2 compilation (ONNX inference is native).
        Files.writeString(server.resolve("jvm.options"), String.join("\n", "-Dcorpora.plugins.dir=" + plugins, "-Dcorpora.data.dir=" + data,
                "-Dmp.openapi.scan.disable=true", "-XX:TieredStopAtLevel=1", "-Xmx1g", ""));
        KillableLibertyServer created = new KillableLibertyServer(wlp, name, port, logs);
        Runtime.getRuntime().addShutdownHook(new Thread(created::close, "kill " + name)); // never outlive the test JVM
        return created;
    }

    URI baseUri() {
        return URI.create("http://localhost:" + port + "/");
    }

    /** Starts the server ({@code server run}, in the foreground of a child process) and waits until the application answers. */
    void start() throws IOException, InterruptedException {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException("server " + name + " is already running");
        }
        requirePortFree();
        starts++;
        Path console = logs.resolve("console-" + starts + ".log");
        ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin/server").toString(), "run", name)
                .redirectErrorStream(true).redirectOutput(console.toFile());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        process = builder.start();
        Poll.until("server " + name + " ready; see " + console, START_TIMEOUT, () -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("server " + name + " exited with " + process.exitValue() + " while starting; see " + console);
            }
            return answers("health/ready") && answers("console/index.html"); // the feature, then the WAR itself
        });
    }

    /**
     * SIGKILLs the server's JVM (not the launch script): no shutdown hooks, no flush, no graceful close of Lucene or H2.
     * Returns once the JVM is gone.
     */
    void killJvm() throws Exception {
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
    Optional<ProcessHandle> serverJvm() {
        ProcessHandle launched = process.toHandle();
        return Stream.concat(Stream.of(launched), launched.descendants())
                .filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false))
                .findFirst();
    }

    Path messagesLog() {
        return wlp.resolve("usr/servers").resolve(name).resolve("logs/messages.log");
    }

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
            HttpRequest request = HttpRequest.newBuilder(baseUri().resolve(path)).timeout(Duration.ofSeconds(5)).GET().build();
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

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(file -> {
                try {
                    Files.delete(file);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
