package io.corpora.server.api;

import jakarta.json.bind.Jsonb;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes {@code text/event-stream} events (WHATWG HTML, server-sent events): {@code event: name} and one {@code data:}
 * line of JSON, each flushed at once. Synchronized: deltas arrive on the generator's thread. A write to a client that
 * went away throws {@link UncheckedIOException}, which is how the caller learns to cancel the model call.
 */
final class EventStream {

    private final OutputStream out;
    private final Jsonb jsonb;

    EventStream(OutputStream out, Jsonb jsonb) {
        this.out = out;
        this.jsonb = jsonb;
    }

    synchronized void send(String event, Object data) {
        // JSON never holds a raw line break, so one data line carries the whole payload
        String frame = "event: " + event + "\ndata: " + jsonb.toJson(data) + "\n\n";
        try {
            out.write(frame.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("the client closed the event stream", e);
        }
    }
}
