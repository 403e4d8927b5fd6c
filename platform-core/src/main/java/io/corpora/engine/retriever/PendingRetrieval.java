package io.corpora.engine.retriever;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * A retrieval begun by {@link Retriever#start}: {@link #join} returns its result on the caller's thread, running what
 * is left of it there. One that {@link #inBackground runs in the background} is already working; one that does not
 * does all its work in {@code join}, so a composite joins it first, while the others work.
 */
public interface PendingRetrieval {

    RetrievalResult join();

    boolean inBackground();

    /** All the work in {@link #join}, on the caller's thread. */
    static PendingRetrieval onJoin(Supplier<RetrievalResult> retrieval) {
        return new Handle(retrieval, false);
    }

    /** Work already started elsewhere; {@code finish} waits for it and completes the result on the caller's thread. */
    static PendingRetrieval inBackground(Supplier<RetrievalResult> finish) {
        return new Handle(finish, true);
    }

    /** {@code joiner} runs in {@link #join}. */
    record Handle(Supplier<RetrievalResult> joiner, boolean inBackground) implements PendingRetrieval {
        @Override
        public RetrievalResult join() {
            return joiner.get();
        }
    }

    /** The value of background work, or the exception its own code threw (a guard's timeout, a plugin failure), as if run here. */
    static <T> T await(CompletableFuture<T> work) {
        try {
            return work.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
