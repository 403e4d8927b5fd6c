package io.corpora.generate.openai;

import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A {@link Generator} over an OpenAI-compatible {@code POST …/chat/completions} endpoint. Thread-safe: one JDK
 * {@link HttpClient} (redirects never followed) and one scheduler serve every call, each call independent.
 * {@link #close()} cancels the calls still running and stops the threads.
 */
final class OpenAiGenerator implements Generator {

    /** Everything a generator instance needs, validated by the provider. */
    record Settings(ChatEndpoint endpoint, ChatCompletionsJson.Defaults defaults, Duration connectTimeout, Duration timeout,
                    RetryPolicy retry, long maxResponseBytes) {}

    /** What the calls of one generator share; thread-safe. */
    final class Shared {
        private final Failures failures;

        private Shared() {
            failures = new Failures(settings.endpoint().described(), settings.connectTimeout(), settings.timeout(),
                    settings.maxResponseBytes());
        }

        HttpClient client() {
            return client;
        }

        ScheduledExecutorService scheduler() {
            return scheduler;
        }

        ChatCompletionsJson json() {
            return json;
        }

        ChatEndpoint endpoint() {
            return settings.endpoint();
        }

        String model() {
            return settings.defaults().model();
        }

        Duration timeout() {
            return settings.timeout();
        }

        long maxResponseBytes() {
            return settings.maxResponseBytes();
        }

        RetryPolicy retry() {
            return settings.retry();
        }

        Failures failures() {
            return failures;
        }

        void forget(ChatCall call) {
            live.remove(call);
        }
    }

    private final Settings settings;
    private final ExecutorService executor;
    private final ScheduledExecutorService scheduler;
    private final HttpClient client;
    private final ChatCompletionsJson json = new ChatCompletionsJson();
    private final Shared shared;
    private final Set<ChatCall> live = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    OpenAiGenerator(Settings settings) {
        this.settings = settings;
        this.executor = Executors.newCachedThreadPool(daemonThreads("generator-openai-http"));
        ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, daemonThreads("generator-openai-timer"));
        timers.setRemoveOnCancelPolicy(true); // idle checks are rescheduled with every piece of a stream
        this.scheduler = timers;
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.connectTimeout())
                .executor(executor)
                .build();
        this.shared = new Shared();
    }

    @Override
    public String modelId() {
        return settings.defaults().model();
    }

    @Override
    public boolean streamsDeltas() {
        return true;
    }

    @Override
    public Generation generate(GenerationRequest request) {
        ChatCall call = start(request, null);
        try {
            return call.future().get();
        } catch (InterruptedException e) {
            call.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while waiting for chat completions endpoint " + settings.endpoint().described());
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof RuntimeException runtime ? runtime : new IllegalStateException(cause);
        }
    }

    @Override
    public GenerationStream stream(GenerationRequest request, Consumer<String> deltas) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(deltas, "deltas");
        return closed ? GenerationStream.failed(closedFailure()) : start(request, deltas);
    }

    private ChatCall start(GenerationRequest request, Consumer<String> deltas) {
        Objects.requireNonNull(request, "request");
        if (closed) {
            throw closedFailure();
        }
        ChatCall call = new ChatCall(shared, json.requestBody(settings.defaults(), request, deltas != null), deltas);
        live.add(call);
        call.start();
        return call;
    }

    private IllegalStateException closedFailure() {
        return new IllegalStateException("generator for " + settings.endpoint().described() + " is closed");
    }

    @Override
    public void close() {
        closed = true;
        live.forEach(ChatCall::cancel);
        scheduler.shutdownNow();
        executor.shutdownNow();
    }

    @Override
    public String toString() {
        return "OpenAiGenerator[" + settings.defaults().model() + " at " + settings.endpoint() + "]";
    }

    private static ThreadFactory daemonThreads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
