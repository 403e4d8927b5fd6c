package io.corpora.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.client.model.AnswerCitation;
import io.corpora.client.model.AskResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A streamed ask under way: its events are read on a thread of their own and handed to the {@link AskListener}; the
 * {@code done} event completes {@link #answer()}. An {@code error} event (the server failed after the stream began,
 * e.g. the generator's 503) completes it with a {@link CorporaProblemException}; a stream that ends without either,
 * with a {@link CorporaException}. {@link #cancel()} (or {@link #close()} before the end) closes the connection, which
 * makes the server cancel the model call.
 */
public final class AskStream implements AutoCloseable {

    /** The {@code retrieval} event's body. */
    private record Retrieved(List<AnswerCitation> context) {}

    private final CompletableFuture<AskResponse> answer = new CompletableFuture<>();
    private final InputStream body;
    private final AskListener listener;
    private final ObjectMapper json;
    private final String requestId;
    private volatile boolean cancelled;

    private AskStream(InputStream body, AskListener listener, ObjectMapper json, String requestId) {
        this.body = body;
        this.listener = listener;
        this.json = json;
        this.requestId = requestId;
    }

    static AskStream start(InputStream body, AskListener listener, ObjectMapper json, String requestId, String threadName) {
        AskStream stream = new AskStream(body, listener, json, requestId);
        Thread reader = new Thread(stream::read, threadName);
        reader.setDaemon(true);
        reader.start();
        return stream;
    }

    /** The complete answer, once the {@code done} event arrived (the same body as a blocking ask returns). */
    public CompletableFuture<AskResponse> answer() {
        return answer;
    }

    /** Waits for the complete answer; throws what ended the stream ({@link CorporaProblemException} for an error event). */
    public AskResponse await() {
        try {
            return answer.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Stops reading and closes the connection: the server cancels the model call; {@link #answer()} is cancelled. */
    public void cancel() {
        cancelled = true;
        answer.cancel(false);
        closeBody();
    }

    public boolean cancelled() {
        return cancelled;
    }

    /** Cancels the stream unless it already ended. */
    @Override
    public void close() {
        if (!answer.isDone()) {
            cancel();
        }
    }

    private void read() {
        try (ServerSentEvents events = new ServerSentEvents(body)) {
            for (ServerSentEvents.Event event; (event = events.next()) != null; ) {
                switch (event.name()) {
                    case "retrieval" -> listener.retrieved(json.readValue(event.data(), Retrieved.class).context());
                    case "delta" -> listener.delta(json.readTree(event.data()).path("text").asText());
                    case "done" -> {
                        answer.complete(json.readValue(event.data(), AskResponse.class));
                        return;
                    }
                    case "error" -> {
                        JsonNode problem = json.readTree(event.data());
                        answer.completeExceptionally(Problems.decode(json, problem, problem.path("status").asInt(500), requestId, null));
                        return;
                    }
                    default -> {
                        // an event this client does not know (a newer server): not part of the answer
                    }
                }
            }
            answer.completeExceptionally(ended("the answer stream ended before its done event", null));
        } catch (IOException e) {
            answer.completeExceptionally(ended("reading the answer stream failed: " + e.getMessage(), e));
        } catch (RuntimeException | Error listenerFailed) {
            // the caller's listener threw: the try closed the connection, so the model call stops too; an Error as well,
            // or answer() would never complete for a caller waiting on it
            answer.completeExceptionally(listenerFailed);
            if (listenerFailed instanceof Error error) {
                throw error;
            }
        }
    }

    private RuntimeException ended(String message, IOException cause) {
        return cancelled ? new CancellationException("the answer stream was cancelled") : new CorporaException(message
                + (requestId == null ? "" : " (request " + requestId + ")"), cause);
    }

    private void closeBody() {
        try {
            body.close(); // the raw stream, not the reader: its lock is held by the reading thread
        } catch (IOException e) {
            // already closed or broken: the connection is gone either way
        }
    }
}
