package io.corpora.generate.openai;

/**
 * Turns the lines of a {@code text/event-stream} body into the data of its events, by the server-sent events rules:
 * {@code data:} lines (one leading space dropped) accumulate, joined by newlines, until a blank line dispatches
 * them; comment lines ({@code :…}, e.g. keep-alives) and the other fields ({@code event}, {@code id},
 * {@code retry}) carry nothing chat completions use. Data still pending when the body ends is dispatched too, so
 * a truncated last event is seen (and refused by its parser) rather than silently dropped.
 */
final class SseEventReader implements LineSubscriber.Lines {

    /** Receives each event's data, then the end of the stream. */
    interface Events {
        void data(String data);

        void end();
    }

    private final Events events;
    private final StringBuilder data = new StringBuilder();
    private boolean pending;

    SseEventReader(Events events) {
        this.events = events;
    }

    @Override
    public void line(String line) {
        if (line.isEmpty()) {
            dispatch();
            return;
        }
        if (line.charAt(0) == ':') {
            return;
        }
        int colon = line.indexOf(':');
        String field = colon < 0 ? line : line.substring(0, colon);
        if (!field.equals("data")) {
            return;
        }
        String value = colon < 0 ? "" : line.substring(colon + 1);
        if (value.startsWith(" ")) {
            value = value.substring(1);
        }
        if (pending) {
            data.append('\n');
        }
        data.append(value);
        pending = true;
    }

    @Override
    public void end() {
        dispatch();
        events.end();
    }

    private void dispatch() {
        if (!pending) {
            return;
        }
        String event = data.toString();
        data.setLength(0);
        pending = false;
        events.data(event);
    }
}
