package io.corpora.cli.bench;

import io.corpora.cli.UsageException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A Corpora server of the bench's own: the build's Open Liberty runtime ({@code platform-server/target/liberty/wlp}),
 * the configuration of the server the build created there, the build's WAR, and a Liberty user directory, data
 * directory and port of its own under the results folder, in development mode (the bench mints its tokens with the
 * development key). Run in the foreground of a child process; {@link #close} stops it.
 */
final class BenchServer implements AutoCloseable {

    static final Path DEFAULT_LIBERTY = Path.of("platform-server", "target", "liberty", "wlp");
    static final Path DEFAULT_WAR = Path.of("platform-server", "target", "corpora.war");
    private static final String NAME = "bench";
    private static final Duration START_TIMEOUT = Duration.ofMinutes(10);

    private final Path wlp;
    private final Path userDir;
    private final Path console;
    private final int port;
    private Process process;

    private BenchServer(Path wlp, Path userDir, Path console, int port) {
        this.wlp = wlp;
        this.userDir = userDir;
        this.console = console;
        this.port = port;
    }

    /**
     * Makes the server under {@code home} ({@code wlp-usr/}, {@code data/}, {@code console.log}) on {@code port} (0: a
     * free one), with {@code jvmOptions} besides its plugins, data directory, development mode and JDK's vector module.
     */
    static BenchServer create(Path wlp, Path war, Path plugins, Path home, int port, List<String> jvmOptions) throws IOException {
        Path template = template(wlp);
        if (!Files.isRegularFile(war)) {
            throw new UsageException("the server's WAR " + war.toAbsolutePath() + " is missing: build the server first"
                    + " (mvn -DskipTests install), or pass --http-war FILE");
        }
        Path userDir = home.resolve("wlp-usr");
        Path server = userDir.resolve("servers").resolve(NAME);
        Path data = home.resolve("data");
        Files.createDirectories(server.resolve("dropins"));
        Files.createDirectories(data);
        Files.copy(template.resolve("server.xml"), server.resolve("server.xml"), StandardCopyOption.REPLACE_EXISTING);
        copyTree(template.resolve("jdbc"), server.resolve("jdbc"));
        Files.copy(war, server.resolve("dropins").resolve("corpora.war"), StandardCopyOption.REPLACE_EXISTING);
        int chosen = port > 0 ? port : freePort();
        // server.xml reads corpora.data.dir as a Liberty variable (the H2 file), the application through MicroProfile Config.
        Files.writeString(server.resolve("bootstrap.properties"), "http.port=" + chosen + "\ncorpora.data.dir=" + data.toAbsolutePath() + "\n");
        List<String> options = new ArrayList<>(List.of("-Dcorpora.plugins.dir=" + plugins.toAbsolutePath(),
                "-Dcorpora.data.dir=" + data.toAbsolutePath(), "-Dcorpora.dev.mode=true", "-Dmp.openapi.scan.disable=true"));
        options.addAll(vectorOptions());
        options.addAll(jvmOptions);
        Files.writeString(server.resolve("jvm.options"), String.join("\n", options) + "\n");
        return new BenchServer(wlp, userDir, home.resolve("console.log"), chosen);
    }

    /** The server the build created in the runtime (its name is the build's liberty.server.name). */
    private static Path template(Path wlp) throws IOException {
        Path servers = wlp.resolve("usr").resolve("servers");
        if (!Files.isDirectory(servers)) {
            throw new UsageException("no Liberty runtime at " + wlp.toAbsolutePath() + ": build the server first (mvn -DskipTests install),"
                    + " or pass --http-liberty DIR");
        }
        try (Stream<Path> found = Files.list(servers)) {
            return found.filter(d -> Files.isRegularFile(d.resolve("server.xml")) && Files.isDirectory(d.resolve("jdbc"))).sorted().findFirst()
                    .orElseThrow(() -> new UsageException("no server with server.xml and jdbc/ under " + servers.toAbsolutePath()
                            + ": run the server build's pre-integration-test phase (mvn -DskipTests install)"));
        }
    }

    /** The flags bin/corpora gives the bench's own JVM on JDK 21+, so both search with the same vectorised Lucene. */
    private static List<String> vectorOptions() {
        int feature = Runtime.version().feature();
        return feature < 21 ? List.of() : List.of("--add-modules=jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
                "-Dorg.apache.lucene.vectorization.upperJavaFeatureVersion=" + feature);
    }

    URI baseUri() {
        return URI.create("http://localhost:" + port + "/");
    }

    Path console() {
        return console;
    }

    /** Starts it and waits until it is ready; the JDK is this process's. */
    void start(BenchHttp http) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(wlp.resolve("bin").resolve("server").toString(), "run", NAME)
                .redirectErrorStream(true).redirectOutput(console.toFile());
        builder.environment().put("WLP_USER_DIR", userDir.toAbsolutePath().toString());
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("CORPORA_DEV_MODE");
        process = builder.start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("the bench's server exited with " + process.exitValue() + " while starting; see " + console.toAbsolutePath());
            }
            try {
                HttpResponse<String> ready = http.once(http.get("health/ready", null));
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the bench's server was not ready after " + START_TIMEOUT.toMinutes() + " minutes; see " + console.toAbsolutePath());
            }
            Thread.sleep(1_000);
        }
    }

    /** The server's JVM: the launch script's process itself if it exec'd java, else its java descendant. */
    Optional<ProcessHandle> jvm() {
        if (process == null) {
            return Optional.empty();
        }
        ProcessHandle launched = process.toHandle();
        return Stream.concat(Stream.of(launched), launched.descendants()).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/java")).orElse(false)).findFirst();
    }

    /** Stops the server (Liberty's own stop, then the process tree if it is still there a minute later). */
    @Override
    public void close() throws IOException, InterruptedException {
        if (process == null || !process.isAlive()) {
            return;
        }
        ProcessBuilder stop = new ProcessBuilder(wlp.resolve("bin").resolve("server").toString(), "stop", NAME)
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(console.toFile()));
        stop.environment().put("WLP_USER_DIR", userDir.toAbsolutePath().toString());
        stop.environment().put("JAVA_HOME", System.getProperty("java.home"));
        stop.start().waitFor(2, TimeUnit.MINUTES);
        if (!process.waitFor(1, TimeUnit.MINUTES)) {
            process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }

    /** Deletes what Liberty kept of the application a server under {@code home} ran, so its next start deploys the WAR anew. */
    static void forgetApplication(Path home) throws IOException {
        Path server = home.resolve("wlp-usr").resolve("servers").resolve(NAME);
        for (Path held : List.of(server.resolve("dropins"), server.resolve("workarea"), server.resolve("apps"))) {
            BenchCommand.deleteRecursively(held);
        }
    }

    /** Deletes what the stopped server held but its logs: its data, its copy of the WAR and Liberty's work area. */
    void discardAllButLogs() throws IOException {
        Path home = userDir.getParent();
        BenchCommand.deleteRecursively(home.resolve("data"));
        forgetApplication(home);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
