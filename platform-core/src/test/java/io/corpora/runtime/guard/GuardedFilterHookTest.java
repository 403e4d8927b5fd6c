package io.corpora.runtime.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.filter.Actor;
import io.corpora.tenancy.AccessFilters;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A guarded filter hook that hangs, or whose breaker is open, still refuses the request: the guard never fails open. */
class GuardedFilterHookTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final Actor alice = new Actor("acme", "alice", Set.of("reader"), Set.of(), Map.of());

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    @Test
    void aHungHookTimesOutAndThenItsOpenBreakerRefusesToo() {
        AtomicInteger calls = new AtomicInteger();
        GuardPolicy policy = new GuardPolicy(Duration.ofMillis(30), 0, Duration.ZERO, Duration.ZERO, 1, 1.0, Duration.ofMinutes(1), 1, 4, 0);
        GuardedFilterHook hook = new GuardedFilterHook(actor -> {
            calls.incrementAndGet();
            try {
                new CountDownLatch(1).await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return MetadataFilter.all(); // what a hook woken by the interrupt might return: must never be used
        }, new PluginCallGuard(new GuardKey("acme", CallKind.FILTER_HOOK, "audience"), policy,
                GuardContext.system(executor, PluginCallObserver.NONE)));

        AccessFilters.AccessDeniedException timedOut = assertThrows(AccessFilters.AccessDeniedException.class,
                () -> AccessFilters.accessFilter(hook, alice));
        assertTrue(timedOut.getCause() instanceof PluginUnavailableException unavailable
                && unavailable.reason() == PluginUnavailableException.Reason.TIMEOUT, String.valueOf(timedOut.getCause()));

        AccessFilters.AccessDeniedException open = assertThrows(AccessFilters.AccessDeniedException.class,
                () -> AccessFilters.accessFilter(hook, alice));
        assertEquals(PluginUnavailableException.Reason.CIRCUIT_OPEN, ((PluginUnavailableException) open.getCause()).reason());
        assertEquals(1, calls.get(), "the open breaker refused without calling the hook, and without allowing anything");
    }
}
