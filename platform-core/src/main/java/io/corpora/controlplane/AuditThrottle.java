package io.corpora.controlplane;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Bounds the audit rows that one caller repeating a refused call can write. Per key (e.g. subject and route), the first
 * {@code perWindow} events of a window are recorded one by one and the rest only counted; once the window has ended, one
 * {@link Summary} carries the count. Keys are tracked for one window only, and at most {@code maxKeys} at a time: events
 * of further keys share the {@code overflowKey}, so memory and rows stay bounded however many subjects or routes a caller
 * uses. Thread-safe.
 *
 * <p>Rows per window are at most {@code (maxKeys + 1) * (perWindow + 1)}, whatever the rate of events.
 *
 * @param <K> the key; equal keys share a window
 */
public final class AuditThrottle<K> {

    private final Clock clock;
    private final Duration window;
    private final int perWindow;
    private final int maxKeys;
    private final K overflowKey;
    private final Map<K, Window> windows = new HashMap<>();
    private final List<Summary<K>> closed = new ArrayList<>();

    public AuditThrottle(Clock clock, Duration window, int perWindow, int maxKeys, K overflowKey) {
        if (window.isNegative() || window.isZero() || perWindow < 1 || maxKeys < 1) {
            throw new IllegalArgumentException("window must be positive and perWindow, maxKeys at least 1: " + window + ", " + perWindow + ", " + maxKeys);
        }
        this.clock = clock;
        this.window = window;
        this.perWindow = perWindow;
        this.maxKeys = maxKeys;
        this.overflowKey = Objects.requireNonNull(overflowKey, "overflowKey");
    }

    /**
     * The key counted a window's suppressed events; {@code overflow} when they are those of keys beyond {@code maxKeys}.
     *
     * @param from when the window began (its first event), {@code to} when it ended
     */
    public record Summary<K>(K key, boolean overflow, long suppressed, Instant from, Instant to) {}

    /** Counts one event of {@code key}; true when it is to be recorded on its own, false when only counted. */
    public synchronized boolean admit(K key) {
        Instant now = clock.instant();
        closeEnded(now);
        K tracked = windows.containsKey(key) || windows.size() < maxKeys ? key : overflowKey;
        Window current = windows.computeIfAbsent(tracked, k -> new Window(now));
        current.events++;
        if (current.events <= perWindow) {
            return true;
        }
        current.suppressed++;
        return false;
    }

    /** The summaries of windows that have ended with suppressed events, each once; their keys are forgotten. */
    public synchronized List<Summary<K>> endedSummaries() {
        closeEnded(clock.instant());
        return drain();
    }

    /** Every summary, ended windows or not (e.g. at shutdown, so no count is lost); every key is forgotten. */
    public synchronized List<Summary<K>> allSummaries() {
        Instant now = clock.instant();
        windows.forEach((key, w) -> close(key, w, now));
        windows.clear();
        return drain();
    }

    /** How many keys are tracked now (bounded by {@code maxKeys + 1}). */
    public synchronized int trackedKeys() {
        return windows.size();
    }

    private void closeEnded(Instant now) {
        for (Iterator<Map.Entry<K, Window>> it = windows.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<K, Window> entry = it.next();
            Instant end = entry.getValue().start.plus(window);
            if (!now.isBefore(end)) {
                close(entry.getKey(), entry.getValue(), end);
                it.remove();
            }
        }
    }

    private void close(K key, Window w, Instant end) {
        if (w.suppressed > 0) {
            closed.add(new Summary<>(key, key.equals(overflowKey), w.suppressed, w.start, end));
        }
    }

    private List<Summary<K>> drain() {
        List<Summary<K>> summaries = List.copyOf(closed);
        closed.clear();
        return summaries;
    }

    private static final class Window {
        final Instant start;
        long events;
        long suppressed;

        Window(Instant start) {
            this.start = start;
        }
    }
}
