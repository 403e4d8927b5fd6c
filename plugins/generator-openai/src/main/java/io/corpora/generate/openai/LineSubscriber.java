package io.corpora.generate.openai;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Reads a response body line by line as it arrives (lines end with LF, CRLF or CR, as in server-sent events; a last
 * line without an ending counts too) and hands each line to its {@link Lines}. Bounded: more than {@code maxBytes}, or
 * no data for {@code idleTimeout}, fails the body. The body stage completes after the last line was handled, or
 * exceptionally — and the exchange is then cancelled, which closes the connection — when the body was too large,
 * stalled or broke off, when a handler threw, or on {@link #cancel()}. Demand is one buffer at a time, so a slow
 * handler slows the sender instead of filling memory.
 */
final class LineSubscriber implements HttpResponse.BodySubscriber<Void> {

    /** Receives the lines, one call at a time; an exception it throws ends the body with that exception. */
    interface Lines {
        void line(String line);

        /** The body ended after its last line. */
        default void end() {}
    }

    /** The body outgrew {@code maxBytes}. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge(long limit) {
            super("response body larger than " + limit + " bytes");
        }
    }

    /** Nothing arrived for {@code idleTimeout} after the body had begun. */
    static final class Stalled extends HttpTimeoutException {
        private static final long serialVersionUID = 1L;

        Stalled(Duration idle) {
            super("no data for " + idle.toMillis() + " ms");
        }
    }

    private final long maxBytes;
    private final Duration idleTimeout;
    private final ScheduledExecutorService scheduler;
    private final Lines lines;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean afterCarriageReturn;
    private long received;
    private Flow.Subscription subscription; // guarded by this: request and cancel must not overlap
    private volatile ScheduledFuture<?> idleCheck;

    LineSubscriber(long maxBytes, Duration idleTimeout, ScheduledExecutorService scheduler, Lines lines) {
        this.maxBytes = maxBytes;
        this.idleTimeout = idleTimeout;
        this.scheduler = scheduler;
        this.lines = lines;
    }

    @Override
    public CompletionStage<Void> getBody() {
        return done;
    }

    /** Stops reading and closes the exchange; the body stage fails with a {@link CancellationException}. */
    void cancel() {
        fail(new CancellationException("response body no longer wanted"));
    }

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        synchronized (this) {
            this.subscription = subscription;
            if (done.isDone()) {
                subscription.cancel();
                return;
            }
        }
        armIdleCheck();
        request();
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
        if (done.isDone()) {
            return;
        }
        armIdleCheck();
        for (ByteBuffer item : items) {
            received += item.remaining();
            if (received > maxBytes) {
                fail(new TooLarge(maxBytes));
                return;
            }
            byte[] bytes = new byte[item.remaining()];
            item.get(bytes);
            if (!split(bytes)) {
                return;
            }
        }
        request();
    }

    /** Emits every line ended in {@code bytes}, keeps the unfinished rest; false once the body is done. */
    private boolean split(byte[] bytes) {
        int start = 0;
        for (int i = 0; i < bytes.length; i++) {
            byte b = bytes[i];
            if (b == '\n' && afterCarriageReturn) { // the LF of a CRLF whose CR ended the line already
                afterCarriageReturn = false;
                start = i + 1;
                continue;
            }
            afterCarriageReturn = b == '\r';
            if (b == '\n' || b == '\r') {
                line.write(bytes, start, i - start);
                start = i + 1;
                if (!emit()) {
                    return false;
                }
            }
        }
        line.write(bytes, start, bytes.length - start);
        return true;
    }

    private boolean emit() {
        String text = line.toString(StandardCharsets.UTF_8);
        line.reset();
        try {
            lines.line(text);
        } catch (RuntimeException e) {
            fail(e);
        }
        return !done.isDone();
    }

    @Override
    public void onError(Throwable error) {
        disarmIdleCheck();
        done.completeExceptionally(error);
    }

    @Override
    public void onComplete() {
        disarmIdleCheck();
        if (done.isDone() || (line.size() > 0 && !emit())) {
            return;
        }
        try {
            lines.end();
            done.complete(null);
        } catch (RuntimeException e) {
            done.completeExceptionally(e);
        }
    }

    private void fail(Throwable error) {
        if (done.completeExceptionally(error)) {
            disarmIdleCheck();
            synchronized (this) {
                if (subscription != null) {
                    subscription.cancel();
                }
            }
        }
    }

    private synchronized void request() {
        if (!done.isDone()) {
            subscription.request(1);
        }
    }

    /** Restarts the idle clock; only ever called from the (serialised) subscriber callbacks. */
    private void armIdleCheck() {
        ScheduledFuture<?> previous = idleCheck;
        try {
            idleCheck = scheduler.schedule(() -> fail(new Stalled(idleTimeout)), idleTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            fail(new CancellationException("the generator was closed"));
        }
        if (previous != null) {
            previous.cancel(false);
        }
    }

    private void disarmIdleCheck() {
        ScheduledFuture<?> check = idleCheck;
        if (check != null) {
            check.cancel(false);
        }
    }
}
