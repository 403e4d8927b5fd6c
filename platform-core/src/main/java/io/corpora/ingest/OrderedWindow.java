package io.corpora.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Runs a job's items with at most {@code window} in flight and hands each result on in the items' order. The next item
 * starts as soon as <em>any</em> item in flight finishes, not only the oldest: a slow document (a large one, one waiting
 * for a store commit) does not hold the embedder idle while the documents behind it are done. Results that finish early
 * wait (small) until those before them are handed on; the items themselves are the caller's already, so memory stays as
 * bounded as the window.
 */
public final class OrderedWindow {

    private OrderedWindow() {}

    /**
     * A sink that holds results a while (to record several at once) and must not be kept waiting past a deadline: while
     * the window waits for a slot or a result, it calls {@link #due} once {@link #nanosUntilDue} has passed.
     */
    public interface BufferedSink<R> extends Consumer<R> {

        /** How long the window may wait before calling {@link #due}; {@link Long#MAX_VALUE} when nothing is held. */
        long nanosUntilDue();

        /** Hands on what is held; called on the window's thread. */
        void due();
    }

    /** As {@link #run(List, int, Executor, Function, BufferedSink)}, for a sink that holds nothing. */
    public static <T, R> void run(List<T> items, int window, Executor executor, Function<T, R> work, Consumer<R> sink) {
        run(items, window, executor, work, new BufferedSink<R>() {
            @Override
            public void accept(R result) {
                sink.accept(result);
            }

            @Override
            public long nanosUntilDue() {
                return Long.MAX_VALUE;
            }

            @Override
            public void due() {
                // holds nothing
            }
        });
    }

    /**
     * @param executor where items run when {@code window} &gt; 1; with 1 they run one after the other on the calling thread
     * @param sink     receives every result in item order, on the calling thread, as soon as it and all before it are done;
     *                 with {@code window} 1 it is never waited on (the items run on its thread), so it holds results at most
     *                 one item longer than it asks
     */
    public static <T, R> void run(List<T> items, int window, Executor executor, Function<T, R> work, BufferedSink<R> sink) {
        if (window < 1) {
            throw new IllegalArgumentException("window must be at least 1, got " + window);
        }
        if (window == 1) {
            items.forEach(item -> sink.accept(work.apply(item)));
            return;
        }
        Semaphore slots = new Semaphore(window);
        List<CompletableFuture<R>> results = new ArrayList<>(items.size());
        int handedOn = 0;
        for (T item : items) {
            acquire(slots, sink);
            CompletableFuture<R> result = new CompletableFuture<>();
            results.add(result);
            try {
                executor.execute(() -> {
                    try {
                        result.complete(work.apply(item));
                    } catch (Throwable e) {
                        result.completeExceptionally(e);
                    } finally {
                        slots.release();
                    }
                });
            } catch (RuntimeException e) {
                slots.release();
                throw e;
            }
            while (handedOn < results.size() && results.get(handedOn).isDone()) {
                sink.accept(join(results.get(handedOn++), sink));
            }
        }
        while (handedOn < results.size()) {
            sink.accept(join(results.get(handedOn++), sink));
        }
    }

    private static void acquire(Semaphore slots, BufferedSink<?> sink) {
        awaitServing(sink, nanos -> slots.tryAcquire(nanos, TimeUnit.NANOSECONDS));
    }

    private static <R> R join(CompletableFuture<R> result, BufferedSink<?> sink) {
        awaitServing(sink, nanos -> {
            try {
                result.get(nanos, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                return false;
            } catch (ExecutionException e) {
                // done: join() below hands the failure on
            }
            return true;
        });
        try {
            return result.join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException("a document of the job failed unexpectedly", cause);
        }
    }

    /** A wait of at most a given time; true once what it waits for is there. */
    private interface TimedWait {
        boolean within(long nanos) throws InterruptedException;
    }

    /** Waits until {@code ready}, letting the sink hand on what it holds each time its deadline comes first. */
    private static void awaitServing(BufferedSink<?> sink, TimedWait ready) {
        try {
            while (!ready.within(sink.nanosUntilDue())) { // Long.MAX_VALUE, nothing held: as good as no timeout
                sink.due();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a document of the job", e);
        }
    }
}
