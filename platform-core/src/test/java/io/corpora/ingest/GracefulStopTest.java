package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GracefulStopTest {

    @Test
    void awaitIdleWaitsForEveryPieceOfWorkThatEntered() throws Exception {
        GracefulStop stop = new GracefulStop();
        assertTrue(stop.awaitIdle(Duration.ZERO), "nothing entered");
        stop.enter();
        stop.enter();
        stop.request();
        assertFalse(stop.awaitIdle(Duration.ofMillis(50)));
        stop.exit();
        assertFalse(stop.awaitIdle(Duration.ofMillis(50)), "one is still in progress");
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return stop.awaitIdle(Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        stop.exit();
        assertTrue(waiting.get(10, TimeUnit.SECONDS), "woken by the last exit, long before its minute");
    }

    @Test
    void aTaskHandedToAnExecutorCountsBeforeItStartsAndARefusedOneDoesNot() throws Exception {
        GracefulStop stop = new GracefulStop();
        List<Runnable> handedOver = new ArrayList<>();
        stop.execute(handedOver::add, () -> {});
        assertFalse(stop.awaitIdle(Duration.ofMillis(20)), "waiting in the executor is work in progress");
        handedOver.get(0).run();
        assertTrue(stop.awaitIdle(Duration.ZERO));

        RejectedExecutionException refusal = new RejectedExecutionException("shut down");
        assertSame(refusal, assertThrows(RejectedExecutionException.class, () -> stop.execute(task -> {
            throw refusal;
        }, () -> {})));
        assertTrue(stop.awaitIdle(Duration.ZERO), "a refused task is not counted");

        stop.execute(handedOver::add, () -> {
            throw new IllegalStateException("the task fails");
        });
        assertThrows(IllegalStateException.class, () -> handedOver.get(1).run());
        assertTrue(stop.awaitIdle(Duration.ZERO), "a task that threw has ended too");
    }

    @Test
    void severalStopsAreAwaitedWithinOneDeadline() throws Exception {
        GracefulStop idle = new GracefulStop();
        GracefulStop busy = new GracefulStop();
        busy.enter();
        assertFalse(GracefulStop.awaitIdle(List.of(idle, busy), Duration.ofMillis(50)));
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return GracefulStop.awaitIdle(List.of(busy, idle), Duration.ofMinutes(1));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        busy.exit();
        assertTrue(waiting.get(10, TimeUnit.SECONDS));
    }

    @Test
    void aSleepEndsWhenTheStopIsRequestedAndSaysSo() throws Exception {
        GracefulStop stop = new GracefulStop();
        assertFalse(stop.sleep(Duration.ofMillis(10)), "slept its time out: no stop");
        assertFalse(stop.requested());
        CompletableFuture<Boolean> sleeping = CompletableFuture.supplyAsync(() -> stop.sleep(Duration.ofMinutes(5)));
        stop.request();
        assertTrue(sleeping.get(10, TimeUnit.SECONDS));
        assertTrue(stop.requested());
        assertTrue(stop.sleep(Duration.ofMinutes(5)), "after the stop a sleep returns at once");
        assertTrue(stop.sleep(Duration.ZERO));
    }
}
