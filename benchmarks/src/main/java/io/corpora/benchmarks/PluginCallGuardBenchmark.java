package io.corpora.benchmarks;

import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardKey;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.GuardedEmbedder;
import io.corpora.runtime.guard.PluginCallGuard;
import io.corpora.runtime.guard.PluginCallObserver;
import io.corpora.spi.embed.Embedder;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * What the per-tenant guard adds to one plugin call: the same trivial embedder called directly and through a tenant's
 * {@link PluginCallGuard} (bulkhead and breaker bookkeeping, one hand-off to the plugin-call pool so the caller can stop
 * waiting at the timeout), in one run, from one caller and from four. Run with {@code benchmarks/run.sh PluginCallGuard}.
 */
public class PluginCallGuardBenchmark extends CoreBenchmark {

    private ExecutorService pluginCalls;
    private Embedder direct;
    private Embedder guarded;

    @Setup
    public void setUp() {
        pluginCalls = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "bench-plugin-call");
            thread.setDaemon(true);
            return thread;
        });
        direct = new ConstantEmbedder();
        GuardPolicy policy = GuardPolicy.defaults(CallKind.EMBEDDER);
        guarded = new GuardedEmbedder(direct, new PluginCallGuard(new GuardKey("bench", CallKind.EMBEDDER, "constant"), policy,
                GuardContext.system(pluginCalls, PluginCallObserver.NONE)));
    }

    @TearDown
    public void tearDown() {
        pluginCalls.shutdownNow();
    }

    @Benchmark
    public float[] direct() {
        return direct.embedQuery("q");
    }

    @Benchmark
    public float[] guarded() {
        return guarded.embedQuery("q");
    }

    @Benchmark
    @Threads(4)
    public float[] directFourCallers() {
        return direct.embedQuery("q");
    }

    /** Four callers of one tenant: within the embedder's default bulkhead (8), so none is refused. */
    @Benchmark
    @Threads(4)
    public float[] guardedFourCallers() {
        return guarded.embedQuery("q");
    }
}
