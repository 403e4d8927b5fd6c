package io.corpora.onnx;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A fixed pool of inference threads: however many callers there are, at most {@code workers} model runs
 * happen at once (on 2 cores, two workers with one intra-op thread each were fastest). Calls from several
 * threads queue fairly; a batch is spread over all workers.
 */
public final class InferenceWorkers implements AutoCloseable {

    private final ExecutorService executor;
    private final int workers;

    public InferenceWorkers(int workers, String threadNamePrefix) {
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be at least 1, got " + workers);
        }
        this.workers = workers;
        AtomicInteger counter = new AtomicInteger();
        ThreadFactory factory = runnable -> {
            Thread thread = new Thread(runnable, threadNamePrefix + "-" + counter.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
        this.executor = Executors.newFixedThreadPool(workers, factory);
    }

    public int workers() {
        return workers;
    }

    /** Applies {@code task} to every input on the workers; results in input order; the first failure is rethrown. */
    public <I, O> List<O> map(List<I> inputs, Function<I, O> task) {
        List<Future<O>> futures = new ArrayList<>(inputs.size());
        try {
            for (I input : inputs) {
                futures.add(executor.submit(() -> task.apply(input)));
            }
            List<O> out = new ArrayList<>(inputs.size());
            for (Future<O> future : futures) {
                out.add(future.get());
            }
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for inference", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause.getMessage(), cause);
        } finally {
            futures.forEach(f -> f.cancel(false));
        }
    }

    /** Runs one task on a worker. */
    public <O> O call(Supplier<O> task) {
        return map(List.of(task), Supplier::get).get(0);
    }

    @Override
    public void close() {
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
