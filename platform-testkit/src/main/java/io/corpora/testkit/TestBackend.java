package io.corpora.testkit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Where a suite that needs a real backend (PostgreSQL + pgvector, Qdrant) runs: a Testcontainers container when a Docker
 * engine answers, else the server named by an environment variable, else nowhere — then its tests are skipped with a
 * reason that names the variable and the command that enables them. {@code CORPORA_TEST_DOCKER=off} skips the Docker
 * path (to test against a server of your own on a machine that also runs Docker).
 *
 * @param kind        the choice
 * @param url         the variable's value for {@link Kind#URL}, else null
 * @param description one line: what runs where, or why nothing runs and how to change that
 */
public record TestBackend(Kind kind, String url, String description) {

    public static final String DOCKER_SWITCH = "CORPORA_TEST_DOCKER";
    /** The file, under a module's {@code target/}, to which each suite appends where it ran; bin/corpora test prints them. */
    public static final Path REPORT = Path.of("target", "test-backends.txt");

    public enum Kind { CONTAINER, URL, NONE }

    /**
     * @param service     what the backend is, e.g. "qdrant" or "pgvector"
     * @param image       the container image the CONTAINER choice starts
     * @param urlVariable the environment variable of the URL fallback
     * @param enable      the one command that makes the suite run on a machine without Docker
     * @param env         the environment (System.getenv() in tests)
     * @param docker      the Docker detection, asked only when the Docker path is allowed
     */
    public static TestBackend choose(String service, String image, String urlVariable, String enable, Map<String, String> env,
                                     Supplier<DockerEngine.Detection> docker) {
        String dockerReason;
        if ("off".equalsIgnoreCase(env.getOrDefault(DOCKER_SWITCH, "").trim())) {
            dockerReason = "Docker not used (" + DOCKER_SWITCH + "=off)";
        } else {
            DockerEngine.Detection detection = docker.get();
            if (detection.available()) {
                return new TestBackend(Kind.CONTAINER, null, service + ": Testcontainers " + image + " (" + detection.reason() + ")");
            }
            dockerReason = detection.reason();
        }
        String url = env.get(urlVariable);
        if (url != null && !url.isBlank()) {
            return new TestBackend(Kind.URL, url.trim(), service + ": " + urlVariable + "=" + url.trim() + " (" + dockerReason + ")");
        }
        return new TestBackend(Kind.NONE, null, service + " skipped: " + dockerReason + ", and " + urlVariable
                + " is not set. To run it: " + enable);
    }

    public static TestBackend choose(String service, String image, String urlVariable, String enable) {
        return choose(service, image, urlVariable, enable, System.getenv(), DockerEngine::detect);
    }

    /** Skips the calling test, with the description as the reason, when there is no backend. */
    public void assumeAvailable() {
        assumeTrue(kind != Kind.NONE, description);
    }

    /** Appends "suite: description" to {@link #REPORT} and prints it, so the test report says what ran where. */
    public void report(String suite) {
        String line = suite + ": " + description;
        System.out.println("[test-backend] " + line);
        try {
            Files.createDirectories(REPORT.getParent());
            Files.writeString(REPORT, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("[test-backend] cannot write " + REPORT.toAbsolutePath() + ": " + e.getMessage());
        }
    }
}
