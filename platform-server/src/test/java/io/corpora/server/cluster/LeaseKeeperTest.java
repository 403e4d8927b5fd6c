package io.corpora.server.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.ServerLeases;
import io.corpora.server.persistence.ControlPlanes;
import io.corpora.testkit.Poll;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The lease's renewals and sweeps against a clean stop, on the real JPA leases (H2) and a real scheduler (JDK's, behind
 * the managed interface): the stop waits for a sweep in progress — in CI a sweep that outlived the stop met the closed
 * persistence unit (an FFDC report) — and no renewal or sweep runs after it.
 */
class LeaseKeeperTest {

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private final ScheduledThreadPoolExecutor pool = new ScheduledThreadPoolExecutor(1);
    private ServerLeases leases;
    private LeaseKeeper keeper;

    @BeforeEach
    void keeper() {
        leases = controlPlanes.h2().sharedLeases();
        keeper = new LeaseKeeper();
        keeper.identity = new ServerIdentity("node");
        keeper.leases = leases;
        keeper.scheduler = managed(pool);
        keeper.ttlSeconds = 3; // a beat every second
        keeper.register();
    }

    @AfterEach
    void shutDown() {
        pool.shutdownNow();
    }

    @Test
    void theStopWaitsForASweepInProgressThenReleasesTheLeaseAndNothingRunsAfter() throws Exception {
        CountDownLatch inSweep = new CountDownLatch(1);
        CountDownLatch finishSweep = new CountDownLatch(1);
        AtomicInteger sweeps = new AtomicInteger();
        keeper.start(() -> {
            if (sweeps.incrementAndGet() == 1) {
                inSweep.countDown();
                Poll.until("the test lets the sweep end", Duration.ofSeconds(10), () -> finishSweep.getCount() == 0);
            }
        });
        assertTrue(inSweep.await(10, TimeUnit.SECONDS));

        CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> keeper.stop(true));
        assertThrows(TimeoutException.class, () -> stopping.get(300, TimeUnit.MILLISECONDS), "the stop waits for the sweep");
        assertEquals(List.of(keeper.self()), live(), "the lease is held while the sweep runs");
        finishSweep.countDown();
        stopping.get(10, TimeUnit.SECONDS);

        assertEquals(List.of(), live(), "released once the sweep ended");
        int swept = sweeps.get();
        pool.shutdown(); // the beat is cancelled: nothing is left to run, and anything running ends before termination
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
        assertEquals(swept, sweeps.get(), "no sweep after the stop");
        assertEquals(List.of(), live(), "and no renewal took the lease again");
    }

    @Test
    void aStoppingServerRenewsButSweepsNoMoreAndKeepsItsLeaseWhenItsWorkStillRuns() throws Exception {
        AtomicInteger sweeps = new AtomicInteger();
        keeper.start(sweeps::incrementAndGet);

        keeper.stopSweeping();
        int swept = sweeps.get();
        // Two renewals after it: the first one's beat has ended (a sweep included, had there been one) before the second.
        long first = awaitRenewalAfter(expires());
        awaitRenewalAfter(first);
        assertEquals(swept, sweeps.get(), "no sweep once the stop began, though the renewals go on");

        keeper.stop(false);
        assertEquals(List.of(keeper.self()), live(), "not handed over: the lease is left to expire");
        assertFalse(pool.getQueue().stream().anyMatch(task -> !((java.util.concurrent.Future<?>) task).isCancelled()), "the beat is cancelled");
    }

    private long expires() {
        return leases.live(System.currentTimeMillis()).get(0).expiresMillis();
    }

    /** Waits for a renewal that moves the lease's expiry past {@code expiresMillis}; the new expiry. */
    private long awaitRenewalAfter(long expiresMillis) {
        return Poll.until("a renewal", Duration.ofSeconds(10), () -> Optional.of(expires()).filter(e -> e > expiresMillis));
    }

    private List<String> live() {
        return leases.live(System.currentTimeMillis()).stream().map(ServerLeases.Lease::serverId).toList();
    }

    /** The JDK scheduler behind the managed interface (its scheduling methods are the JDK's). */
    private static ManagedScheduledExecutorService managed(ScheduledExecutorService scheduler) {
        return (ManagedScheduledExecutorService) Proxy.newProxyInstance(LeaseKeeperTest.class.getClassLoader(),
                new Class<?>[] {ManagedScheduledExecutorService.class}, (proxy, method, args) -> {
                    try {
                        return ScheduledExecutorService.class.getMethod(method.getName(), method.getParameterTypes()).invoke(scheduler, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
