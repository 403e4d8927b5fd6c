package io.corpora.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether a Docker engine answers, found the way the Docker CLI and Testcontainers look: {@code DOCKER_HOST}
 * ({@code unix://} or {@code tcp://}), else the usual sockets. An engine counts only if it answers {@code GET /_ping}
 * with 200 — an installed {@code docker} CLI, or a socket file nobody serves, is "no engine". Never throws.
 */
public final class DockerEngine {

    /** Where an engine may listen when DOCKER_HOST is not set. */
    static List<Path> defaultSockets(Map<String, String> env) {
        List<Path> sockets = new ArrayList<>();
        sockets.add(Path.of("/var/run/docker.sock"));
        String home = env.get("HOME");
        if (home != null && !home.isBlank()) {
            sockets.add(Path.of(home, ".docker", "run", "docker.sock"));
            sockets.add(Path.of(home, ".docker", "desktop", "docker.sock"));
        }
        String runtime = env.get("XDG_RUNTIME_DIR");
        if (runtime != null && !runtime.isBlank()) {
            sockets.add(Path.of(runtime, "docker.sock"));
        }
        return sockets;
    }

    static final Duration PING_TIMEOUT = Duration.ofSeconds(2);

    /**
     * The outcome.
     *
     * @param available an engine answered its ping
     * @param endpoint  where (DOCKER_HOST form), or null
     * @param reason    why not, or what answered
     */
    public record Detection(boolean available, String endpoint, String reason) {}

    private DockerEngine() {}

    public static Detection detect() {
        return detect(System.getenv(), defaultSockets(System.getenv()), PING_TIMEOUT);
    }

    static Detection detect(Map<String, String> env, List<Path> sockets, Duration timeout) {
        String dockerHost = env.get("DOCKER_HOST");
        if (dockerHost != null && !dockerHost.isBlank()) {
            return probe(dockerHost.trim(), timeout);
        }
        List<String> absent = new ArrayList<>();
        List<String> silent = new ArrayList<>();
        for (Path socket : sockets) {
            if (!Files.exists(socket)) {
                absent.add(socket.toString());
                continue;
            }
            Detection detection = probe("unix://" + socket, timeout);
            if (detection.available()) {
                return detection;
            }
            silent.add(detection.reason());
        }
        StringBuilder reason = new StringBuilder("no Docker engine (DOCKER_HOST is not set");
        if (!absent.isEmpty()) {
            reason.append("; no socket at ").append(String.join(", ", absent));
        }
        silent.forEach(s -> reason.append("; ").append(s));
        return new Detection(false, null, reason.append(')').toString());
    }

    /** Pings one endpoint: {@code unix:///path}, {@code tcp://host:port}; named pipes are not probed from Java. */
    static Detection probe(String dockerHost, Duration timeout) {
        URI uri;
        try {
            uri = URI.create(dockerHost);
        } catch (IllegalArgumentException e) {
            return new Detection(false, dockerHost, "no Docker engine: DOCKER_HOST=" + dockerHost + " is not a URL");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme();
        if (scheme.equals("npipe")) {
            return new Detection(true, dockerHost, "a named pipe (not probed: assumed to be Docker Desktop)");
        }
        if (!scheme.equals("unix") && !scheme.equals("tcp")) {
            return new Detection(false, dockerHost, "no Docker engine: DOCKER_HOST=" + dockerHost + " is neither unix:// nor tcp://");
        }
        ExecutorService pinger = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "docker-ping");
            t.setDaemon(true);
            return t;
        });
        try {
            Future<String> statusLine = pinger.submit(() -> scheme.equals("unix") ? pingUnix(Path.of(uri.getPath())) : pingTcp(uri, timeout));
            String status = statusLine.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (status.matches("HTTP/1\\.[01] 200.*")) {
                return new Detection(true, dockerHost, "Docker engine at " + dockerHost);
            }
            return new Detection(false, dockerHost, "no Docker engine: " + dockerHost + " answered the ping with '" + status + "'");
        } catch (TimeoutException e) {
            return new Detection(false, dockerHost, "no Docker engine: " + dockerHost + " did not answer the ping within " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            return new Detection(false, dockerHost, "no Docker engine: cannot reach " + dockerHost + " (" + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Detection(false, dockerHost, "no Docker engine: interrupted while pinging " + dockerHost);
        } finally {
            pinger.shutdownNow();
        }
    }

    private static String pingUnix(Path socket) throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(socket));
            channel.write(ByteBuffer.wrap(request()));
            return statusLine(Channels.newInputStream(channel));
        }
    }

    private static String pingTcp(URI uri, Duration timeout) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort() < 0 ? 2375 : uri.getPort()), (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            out.write(request());
            out.flush();
            return statusLine(socket.getInputStream());
        }
    }

    private static byte[] request() {
        return "GET /_ping HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    }

    /** The first line of the reply, at most 200 bytes; empty when the peer closed without a word. */
    private static String statusLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while (line.length() < 200 && (b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }
}
