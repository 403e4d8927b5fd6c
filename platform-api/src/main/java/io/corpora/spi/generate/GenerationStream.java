package io.corpora.spi.generate;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A generation under way, as returned by {@link Generator#stream}. Thread-safe: {@link #cancel()} may be called from
 * any thread, also from inside the delta consumer, any number of times.
 */
public interface GenerationStream {

    /**
     * Completes once, after the last delta was delivered: with the {@link Generation} (whose text is the deltas
     * concatenated), or exceptionally with one of the failures {@link Generator} documents, with a
     * {@link java.util.concurrent.CancellationException} after {@link #cancel()}, or with whatever the delta consumer
     * threw.
     */
    CompletionStage<Generation> result();

    /**
     * Stops the generation: the model call is abandoned (for an HTTP backend, the connection is closed, so the backend
     * can stop generating), {@link #result()} completes with a {@link java.util.concurrent.CancellationException}
     * unless it had completed already, and no further delta is delivered — except one whose delivery had already
     * begun on another thread. Returns without waiting; has no effect on a finished stream.
     */
    void cancel();

    /** A stream that has finished with {@code generation}. */
    static GenerationStream completed(Generation generation) {
        return done(CompletableFuture.completedStage(Objects.requireNonNull(generation, "generation")));
    }

    /** A stream that has failed with {@code failure}. */
    static GenerationStream failed(RuntimeException failure) {
        return done(CompletableFuture.failedStage(Objects.requireNonNull(failure, "failure")));
    }

    private static GenerationStream done(CompletionStage<Generation> result) {
        return new GenerationStream() {
            @Override
            public CompletionStage<Generation> result() {
                return result;
            }

            @Override
            public void cancel() {
                // already finished
            }
        };
    }
}
