package io.corpora.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
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
     * @param executor where items run when {@code window} &gt; 1; with 1 they run one after the other on the calling thread
     * @param sink     receives every result in item order, on the calling thread, as soon as it and all before it are done
     */
    public static <T, R> void run(List<T> items, int window, Executor executor, Function<T, R> work, Consumer<R> sink) {
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
            acquire(slots);
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
                sink.accept(join(results.get(handedOn++)));
            }
        }
        while (handedOn < results.size()) {
            sink.accept(join(results.get(handedOn++)));
        }
    }

    private static void acquire(Semaphore slots) {
        try {
            slots.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a document of the job", e);
        }
    }

    private static <R> R join(CompletableFuture<R> result) {
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
}
