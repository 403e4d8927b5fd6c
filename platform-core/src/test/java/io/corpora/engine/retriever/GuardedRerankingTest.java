package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.runtime.guard.CallKind;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardKey;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.GuardedReranker;
import io.corpora.runtime.guard.PluginCallGuard;
import io.corpora.runtime.guard.PluginCallObserver;
import io.corpora.spi.RetrieveOptions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The reranking stage treats the guard's refusals like any reranker failure: base order, degraded, with the guard's reason. */
class GuardedRerankingTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final FixedRetriever base = FixedRetriever.ranking("base", "p1", "p5", "p3");

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void aTimedOutThenOpenCircuitDegradesWithTheReason() {
        GuardPolicy policy = new GuardPolicy(Duration.ofMillis(30), 0, Duration.ZERO, Duration.ZERO, 1, 1.0, Duration.ofMinutes(1), 1, 4, 0);
        PluginCallGuard guard = new PluginCallGuard(new GuardKey("slow", CallKind.RERANKER, "probe-current"), policy,
                GuardContext.system(executor, PluginCallObserver.NONE));
        RerankingRetriever reranking = new RerankingRetriever(base, new GuardedReranker((query, texts) -> {
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new double[0];
        }, guard), 20);

        RetrievalResult first = reranking.retrieve("q", RetrieveOptions.topK(3));
        assertEquals(List.of("p1", "p5", "p3"), first.ids());
        assertTrue(first.diagnostics().degraded());
        assertTrue(first.diagnostics().degradedReason().contains("timed out"), first.diagnostics().degradedReason());

        RetrievalResult second = reranking.retrieve("q", RetrieveOptions.topK(3));
        assertTrue(second.diagnostics().degradedReason().contains("circuit open"), second.diagnostics().degradedReason());
        assertEquals(List.of("p1", "p5", "p3"), second.ids());
    }
}
