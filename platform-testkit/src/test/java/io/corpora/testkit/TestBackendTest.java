package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.TestAbortedException;

/**
 * The Docker detection and the fallback choice behind the backend suites. No Docker engine runs on the project's machines
 * (the CLI answers {@code docker --version}, no daemon listens), so the engine's answer is played by a loopback socket that
 * speaks the one exchange detection uses, {@code GET /_ping}; everything else is the real detection code.
 */
class TestBackendTest {

    private static final Duration SHORT = Duration.ofMillis(500);

    @TempDir
    Path dir;

    // ------------------------------------------------------------------------------------------------ detection

    @Test
    void thisMachinesDetectionAnswersWithoutThrowing() {
        DockerEngine.Detection detection = DockerEngine.detect();
        assertFalse(detection.reason().isBlank());
        if (!detection.available()) {
            assertTrue(detection.reason().startsWith("no Docker engine"), detection.reason());
        }
        System.out.println("[docker-detection] " + detection);
    }

    @Test
    void noSocketAtAnyUsualPlaceIsNoEngineNamingEachPlace() {
        Path a = dir.resolve("docker.sock");
        Path b = dir.resolve("run/docker.sock");
        DockerEngine.Detection detection = DockerEngine.detect(Map.of(), List.of(a, b), SHORT);
        assertFalse(detection.available());
        assertEquals("no Docker engine (DOCKER_HOST is not set; no socket at " + a + ", " + b + ")", detection.reason());
    }

    @Test
    void aSocketFileNobodyServesOrAPlainFileIsNoEngine() throws Exception {
        Path plain = Files.writeString(dir.resolve("docker.sock"), "not a socket");
        DockerEngine.Detection detection = DockerEngine.detect(Map.of(), List.of(plain), SHORT);
        assertFalse(detection.available());
        assertTrue(detection.reason().contains("cannot reach unix://" + plain), detection.reason());
    }

    @Test
    void aClosedTcpPortIsNoEngine() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        DockerEngine.Detection detection = DockerEngine.detect(Map.of("DOCKER_HOST", "tcp://127.0.0.1:" + port), List.of(), SHORT);
        assertFalse(detection.available());
        assertTrue(detection.reason().contains("cannot reach tcp://127.0.0.1:" + port), detection.reason());
    }

    @Test
    void anEngineAnsweringItsPingIsFoundAndAnErrorOrSilenceIsNot() throws Exception {
        Path socket = dir.resolve("engine.sock");
        try (PingAnswerer ok = new PingAnswerer(socket, "HTTP/1.1 200 OK\r\nApi-Version: 1.49\r\nContent-Length: 2\r\n\r\nOK")) {
            DockerEngine.Detection found = DockerEngine.detect(Map.of(), List.of(dir.resolve("absent.sock"), socket), SHORT);
            assertTrue(found.available(), found.reason());
            assertEquals("unix://" + socket, found.endpoint());
            assertEquals("GET /_ping HTTP/1.0", ok.firstRequestLine(), "the ping Docker's API documents");
            DockerEngine.Detection viaHost = DockerEngine.detect(Map.of("DOCKER_HOST", "unix://" + socket), List.of(), SHORT);
            assertTrue(viaHost.available(), viaHost.reason());
        }
        Files.deleteIfExists(socket);
        try (PingAnswerer failing = new PingAnswerer(socket, "HTTP/1.1 500 Internal Server Error\r\n\r\n")) {
            DockerEngine.Detection error = DockerEngine.detect(Map.of(), List.of(socket), SHORT);
            assertFalse(error.available());
            assertTrue(error.reason().contains("answered the ping with 'HTTP/1.1 500 Internal Server Error'"), error.reason());
        }
        Files.deleteIfExists(socket);
        try (PingAnswerer silent = new PingAnswerer(socket, null)) {
            DockerEngine.Detection timeout = DockerEngine.detect(Map.of(), List.of(socket), SHORT);
            assertFalse(timeout.available());
            assertTrue(timeout.reason().contains("did not answer the ping within 500 ms"), timeout.reason());
        }
    }

    @Test
    void dockerHostsThatAreNotUnixOrTcpAreJudgedWithoutCrashing() {
        assertFalse(DockerEngine.detect(Map.of("DOCKER_HOST", "ssh://user@host"), List.of(), SHORT).available());
        assertFalse(DockerEngine.detect(Map.of("DOCKER_HOST", "::not a url::"), List.of(), SHORT).available());
        assertTrue(DockerEngine.detect(Map.of("DOCKER_HOST", "npipe:////./pipe/docker_engine"), List.of(), SHORT).available(),
                "a named pipe is Docker Desktop's; Testcontainers reports for itself if it is not there");
    }

    // ------------------------------------------------------------------------------------------------ the choice

    private static final DockerEngine.Detection ENGINE = new DockerEngine.Detection(true, "unix:///var/run/docker.sock", "Docker engine at unix:///var/run/docker.sock");
    private static final DockerEngine.Detection NO_ENGINE = new DockerEngine.Detection(false, null, "no Docker engine (DOCKER_HOST is not set; no socket at /var/run/docker.sock)");

    private static TestBackend choose(Map<String, String> env, DockerEngine.Detection docker) {
        return TestBackend.choose("qdrant", "qdrant/qdrant:v1.18.0", "CORPORA_TEST_QDRANT_URL", "export CORPORA_TEST_QDRANT_URL=http://localhost:6334",
                env, () -> docker);
    }

    @Test
    void aDockerEngineWinsOverTheUrl() {
        TestBackend backend = choose(Map.of("CORPORA_TEST_QDRANT_URL", "http://q:6334"), ENGINE);
        assertEquals(TestBackend.Kind.CONTAINER, backend.kind());
        assertNull(backend.url());
        assertEquals("qdrant: Testcontainers qdrant/qdrant:v1.18.0 (Docker engine at unix:///var/run/docker.sock)", backend.description());
        backend.assumeAvailable();
    }

    @Test
    void withoutAnEngineTheUrlIsUsedAndTheReportSaysWhyNotDocker() {
        TestBackend backend = choose(Map.of("CORPORA_TEST_QDRANT_URL", " http://q:6334 "), NO_ENGINE);
        assertEquals(TestBackend.Kind.URL, backend.kind());
        assertEquals("http://q:6334", backend.url());
        assertEquals("qdrant: CORPORA_TEST_QDRANT_URL=http://q:6334 (" + NO_ENGINE.reason() + ")", backend.description());
    }

    @Test
    void withNeitherTheSuiteIsSkippedNamingTheVariableAndTheCommand() {
        TestBackend backend = choose(Map.of("CORPORA_TEST_QDRANT_URL", "  "), NO_ENGINE);
        assertEquals(TestBackend.Kind.NONE, backend.kind());
        assertEquals("qdrant skipped: " + NO_ENGINE.reason() + ", and CORPORA_TEST_QDRANT_URL is not set. "
                + "To run it: export CORPORA_TEST_QDRANT_URL=http://localhost:6334", backend.description());
        TestAbortedException skipped = assertThrows(TestAbortedException.class, backend::assumeAvailable);
        assertTrue(skipped.getMessage().contains(backend.description()), skipped.getMessage());
    }

    @Test
    void dockerCanBeSwitchedOffAndIsThenNotEvenAsked() {
        AtomicInteger asked = new AtomicInteger();
        TestBackend backend = TestBackend.choose("pgvector", "pgvector/pgvector:pg15", "CORPORA_TEST_PG_URL", "x",
                Map.of(TestBackend.DOCKER_SWITCH, "OFF", "CORPORA_TEST_PG_URL", "jdbc:postgresql://h/db"), () -> {
                    asked.incrementAndGet();
                    return ENGINE;
                });
        assertEquals(TestBackend.Kind.URL, backend.kind());
        assertEquals(0, asked.get());
        assertTrue(backend.description().contains("Docker not used (CORPORA_TEST_DOCKER=off)"), backend.description());
    }

    /** A loopback Unix socket that answers the first request with a fixed reply (or never, for null) and records it. */
    private static final class PingAnswerer implements AutoCloseable {
        private final ServerSocketChannel server;
        private final Thread thread;
        private volatile String firstRequestLine;

        PingAnswerer(Path socket, String reply) throws IOException {
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(socket));
            thread = new Thread(() -> {
                while (server.isOpen()) {
                    try (SocketChannel client = server.accept()) {
                        String line = requestLine(java.nio.channels.Channels.newInputStream(client));
                        if (firstRequestLine == null) {
                            firstRequestLine = line;
                        }
                        if (reply == null) {
                            Thread.sleep(5_000);
                        } else {
                            client.write(ByteBuffer.wrap(reply.getBytes(StandardCharsets.US_ASCII)));
                        }
                    } catch (IOException | InterruptedException closed) {
                        return; // closed by the test
                    }
                }
            }, "ping-answerer");
            thread.setDaemon(true);
            thread.start();
        }

        private static String requestLine(InputStream in) throws IOException {
            StringBuilder line = new StringBuilder();
            int b;
            while ((b = in.read()) >= 0 && b != '\n') {
                if (b != '\r') {
                    line.append((char) b);
                }
            }
            return line.toString();
        }

        String firstRequestLine() {
            return firstRequestLine;
        }

        @Override
        public void close() throws IOException {
            thread.interrupt();
            server.close();
        }
    }
}
