package io.corpora.runtime.guard;

import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A shared generator seen through one tenant's guard. {@link #generate} is one guarded call. A {@link #stream} is one
 * guarded call too, lasting the whole answer: it holds a bulkhead slot until the last delta, the guard's timeout bounds
 * the answer (and cancels the model call when it fires), and its outcome counts for the breaker. Cancelling the stream
 * (a client that went away) cancels the model call and is not a failure of the generator. The guard adds no retries
 * ({@link GuardPolicy#defaults}: the plugin retries itself).
 */
public final class GuardedGenerator implements Generator {

    private final Supplier<? extends Generator> delegate;
    private final PluginCallGuard guard;
    private final Executor waiters;

    /** @param waiters runs the guarded wait of each stream, so {@link #stream} returns at once as the SPI says */
    public GuardedGenerator(Generator delegate, PluginCallGuard guard, Executor waiters) {
        this(() -> delegate, guard, waiters);
    }

    /**
     * @param delegate where the instance comes from at each call, e.g. a creation on first use; its failure is thrown as
     *                 is, before the guard (an instance that does not exist has no calls to time or count)
     * @param waiters  runs the guarded wait of each stream, so {@link #stream} returns at once as the SPI says
     */
    public GuardedGenerator(Supplier<? extends Generator> delegate, PluginCallGuard guard, Executor waiters) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.guard = Objects.requireNonNull(guard, "guard");
        this.waiters = Objects.requireNonNull(waiters, "waiters");
    }

    @Override
    public String modelId() {
        return delegate.get().modelId();
    }

    @Override
    public boolean streamsDeltas() {
        return delegate.get().streamsDeltas();
    }

    @Override
    public Generation generate(GenerationRequest request) {
        Generator generator = delegate.get();
        return guard.call("generate", () -> generator.generate(request));
    }

    @Override
    public GenerationStream stream(GenerationRequest request, Consumer<String> deltas) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(deltas, "deltas");
        Generator generator = delegate.get();
        GuardedStream stream = new GuardedStream();
        try {
            waiters.execute(() -> stream.run(generator, request, deltas));
        } catch (RuntimeException e) {
            stream.result.completeExceptionally(e);
        }
        return stream;
    }

    /** The shared instance is closed by its owner. */
    @Override
    public void close() {}

    private final class GuardedStream implements GenerationStream {
        final CompletableFuture<Generation> result = new CompletableFuture<>();
        final AtomicReference<GenerationStream> inner = new AtomicReference<>();
        volatile boolean cancelled;

        void run(Generator generator, GenerationRequest request, Consumer<String> deltas) {
            try {
                Generation generation = guard.call("stream", () -> {
                    if (cancelled) {
                        return null;
                    }
                    GenerationStream started = generator.stream(request, delta -> {
                        try {
                            deltas.accept(delta);
                        } catch (RuntimeException e) { // the consumer gave up (a client gone): a cancellation
                            cancelled = true;
                            throw e;
                        }
                    });
                    inner.set(started);
                    if (cancelled) {
                        started.cancel();
                    }
                    try {
                        return started.result().toCompletableFuture().get();
                    } catch (InterruptedException e) { // the guard's timeout: stop the model call
                        started.cancel();
                        Thread.currentThread().interrupt();
                        throw e;
                    } catch (CancellationException e) {
                        if (cancelled) {
                            return null; // the caller went away: not the generator's failure
                        }
                        throw e;
                    } catch (ExecutionException e) {
                        if (cancelled) {
                            return null;
                        }
                        throw e.getCause() instanceof Exception cause ? cause : e;
                    }
                });
                if (generation == null) {
                    result.completeExceptionally(new CancellationException("the generation was cancelled"));
                } else {
                    result.complete(generation);
                }
            } catch (RuntimeException e) {
                result.completeExceptionally(e);
            }
        }

        @Override
        public CompletionStage<Generation> result() {
            return result;
        }

        @Override
        public void cancel() {
            cancelled = true;
            GenerationStream started = inner.get();
            if (started != null) {
                started.cancel();
            }
            result.completeExceptionally(new CancellationException("the generation was cancelled"));
        }
    }
}
