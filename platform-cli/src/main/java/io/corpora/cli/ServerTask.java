package io.corpora.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * A task the server runs in the background — an ingest job, an evaluation — followed by a command until it is neither
 * QUEUED nor RUNNING. On a route that can hold its answer ({@code GET jobs/{id}?wait=N}) each look is a long poll, so
 * the command learns of the end at once; a look answered at once (a route or a server without long polls) is
 * followed by a pause, 100 ms doubling up to 2 s. The Java client's {@code awaitJob} does the same for library users.
 */
public final class ServerTask {

    /** The longest a server holds a look ({@code wait}, 0–30 s). */
    private static final int LONGEST_HOLD_SECONDS = 30;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long FIRST_PAUSE_MILLIS = 100;
    private static final long LONGEST_PAUSE_MILLIS = 2_000;

    private final HttpClient http;
    private final URI task;
    private final boolean longPoll;

    private ServerTask(HttpClient http, URI task, boolean longPoll) {
        this.http = http;
        this.task = task;
        this.longPoll = longPoll;
    }

    /** A task whose route holds a look until the task ends (an ingest job). */
    public static ServerTask longPolled(HttpClient http, URI task) {
        return new ServerTask(http, task, true);
    }

    /** A task whose route answers at once (an evaluation): polled with the back-off. */
    public static ServerTask polled(HttpClient http, URI task) {
        return new ServerTask(http, task, false);
    }

    /**
     * Looks until the task ended and returns its last state; {@code eachLook} sees every state, the last included (a
     * progress line). A look that is not a 200, or a task still running after {@code timeout}, is a {@link Failure}.
     */
    public JsonNode follow(String token, Duration timeout, Consumer<JsonNode> eachLook) throws IOException, InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        URI look = longPoll ? URI.create(task + (task.getQuery() == null ? "?" : "&") + "wait=" + LONGEST_HOLD_SECONDS) : task;
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            long asked = System.nanoTime();
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(look).timeout(Duration.ofSeconds(LONGEST_HOLD_SECONDS + 30))
                    .header("Authorization", "Bearer " + token).header("Accept", "application/json").GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new Failure("cannot follow " + task + ": " + problem(response.statusCode(), response.body()));
            }
            JsonNode state = JSON.readTree(response.body());
            eachLook.accept(state);
            String status = state.path("status").asText();
            if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
                return state;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new Failure(task + " still " + status + " after " + timeout.toMinutes() + " minutes");
            }
            if (Duration.ofNanos(System.nanoTime() - asked).toSeconds() < 1) {
                Thread.sleep(pause); // the server did not hold the look
                pause = Math.min(LONGEST_PAUSE_MILLIS, pause * 2);
            }
        }
    }

    /** An RFC 9457 problem's status, title and detail as a person reads them; the body as it is when it is not one. */
    public static String problem(int status, String body) {
        String title = "";
        String detail = "";
        try {
            JsonNode problem = JSON.readTree(body);
            title = problem.path("title").asText("");
            detail = problem.path("detail").asText("");
        } catch (IOException notJson) {
            // shown as it is, below
        }
        if (title.isEmpty() && detail.isEmpty()) {
            return status + " " + body;
        }
        return status + " " + (title.isEmpty() ? detail : detail.isEmpty() ? title : title + ": " + detail);
    }

    /** The kind of an RFC 9457 problem body ({@code concurrent-write} of {@code …/problems/concurrent-write}), or "". */
    public static String problemKind(String body) {
        try {
            return kindOf(JSON.readTree(body).path("type").asText(""));
        } catch (IOException notJson) {
            return "";
        }
    }

    /** The last segment of a problem type URI, or "". */
    public static String kindOf(String type) {
        return type.substring(type.lastIndexOf('/') + 1);
    }

    /** The task could not be followed to its end: the server refused a look, or the task outlived the timeout. */
    public static final class Failure extends IOException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }
}
