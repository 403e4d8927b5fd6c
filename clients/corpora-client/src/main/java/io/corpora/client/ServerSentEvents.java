package io.corpora.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * Reads a {@code text/event-stream} body event by event, as the WHATWG HTML "server-sent events" parsing rules say:
 * {@code event:} names the event ({@code message} when absent), {@code data:} lines are joined by newlines, a blank
 * line dispatches, lines starting with {@code :} are comments, one space after the colon is dropped.
 */
final class ServerSentEvents implements AutoCloseable {

    /** One dispatched event. */
    record Event(String name, String data) {}

    private final BufferedReader lines;

    ServerSentEvents(InputStream body) {
        this.lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    }

    /** The next event, or null when the stream ended (an event without its closing blank line is not dispatched). */
    Event next() throws IOException {
        String name = null;
        StringBuilder data = null;
        String line;
        while ((line = lines.readLine()) != null) {
            if (line.isEmpty()) {
                if (data != null) {
                    return new Event(name == null ? "message" : name, data.toString());
                }
                name = null; // an event without data is not dispatched
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if (field.equals("event")) {
                name = value;
            } else if (field.equals("data")) {
                data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
            }
            // id and retry are for reconnecting EventSources; an answer is not resumed
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        lines.close();
    }
}
