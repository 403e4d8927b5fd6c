package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.testkit.Poll;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** This JVM's own threads (names within the kernel's 15 characters) burning CPU, read back from {@code /proc}. */
class ThreadCpuTest {

    private static final long PID = ProcessHandle.current().pid();

    @Test
    void threadsOfOneKindShareOneName() {
        assertEquals("embedder-onnx", ThreadCpu.kind("embedder-onnx-3"));
        assertEquals("C2 CompilerThre", ThreadCpu.kind("C2 CompilerThre"));
        assertEquals("Lucene Merge Thread", ThreadCpu.kind("Lucene Merge Thread #12"));
        assertEquals("GC Thread", ThreadCpu.kind("GC Thread#1"));
    }

    /** A thread alive at the last snapshot shows under its kind; threads no snapshot saw alive show as ended. */
    @Test
    void cpuIsCountedByKindAndThatOfUnseenEndedThreadsIsKeptAsEnded() throws Exception {
        ThreadCpu.Tracker tracker = new ThreadCpu.Tracker(ThreadCpu.of(PID));
        for (String name : new String[] {"burn-ended-1", "burn-ended-2"}) {
            Thread ended = new Thread(ThreadCpuTest::burn, name);
            ended.start();
            ended.join();
        }
        snapshotWithout("burn-ended");
        Map<String, Double> spent;
        try (BurningThread running = BurningThread.start("burn-running-1")) {
            running.burned.await(30, TimeUnit.SECONDS);
            tracker.observe(ThreadCpu.of(PID));
            spent = tracker.spentByKind();
        }
        assertTrue(spent.getOrDefault("burn-running", 0.0) >= 0.4, spent.toString());
        assertTrue(spent.get(ThreadCpu.ENDED) >= 0.8, "the two burners that ended unseen took ~0.5 s each with them: " + spent);
        assertEquals(0.0, spent.getOrDefault("burn-ended", 0.0), spent.toString());
    }

    /** What the sampler in `bench ingest-http` relies on: a thread seen alive keeps its time under its kind after it ends. */
    @Test
    void aThreadSeenAliveKeepsItsKindAfterItEnds() throws Exception {
        ThreadCpu.Tracker tracker = new ThreadCpu.Tracker(ThreadCpu.of(PID));
        try (BurningThread sampled = BurningThread.start("burn-sampled-1")) {
            sampled.burned.await(30, TimeUnit.SECONDS);
            tracker.observe(ThreadCpu.of(PID));
        } // ended here, before the last snapshot
        tracker.observe(snapshotWithout("burn-sampled"));
        Map<String, Double> spent = tracker.spentByKind();
        assertTrue(spent.getOrDefault("burn-sampled", 0.0) >= 0.4, spent.toString());
        assertTrue(spent.get(ThreadCpu.ENDED) < 0.4, "its time is not left unnamed: " + spent);
    }

    /**
     * A snapshot in which no thread of this kind is left. {@link Thread#join} returns when the Java thread is done,
     * which can be a moment before the kernel removes its task from {@code /proc}.
     */
    private static ThreadCpu snapshotWithout(String kind) {
        return Poll.until("a joined " + kind + " thread gone from /proc", Duration.ofSeconds(10), () -> {
            ThreadCpu snapshot = snapshot();
            return snapshot.secondsByThread().keySet().stream().noneMatch(task -> task.kind().equals(kind))
                    ? Optional.of(snapshot) : Optional.empty();
        });
    }

    private static ThreadCpu snapshot() {
        try {
            return ThreadCpu.of(PID);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A thread that burns ~0.5 s of CPU, then waits until closed, and is joined on close. */
    private record BurningThread(Thread thread, CountDownLatch burned, CountDownLatch release) implements AutoCloseable {
        static BurningThread start(String name) {
            CountDownLatch burned = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread thread = new Thread(() -> {
                burn();
                burned.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, name);
            thread.start();
            return new BurningThread(thread, burned, release);
        }

        @Override
        public void close() throws InterruptedException {
            release.countDown();
            thread.join();
        }
    }

    /** About 0.5 s of CPU on this thread. */
    private static void burn() {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long start = threads.getCurrentThreadCpuTime();
        double sink = 0;
        while (threads.getCurrentThreadCpuTime() - start < 500_000_000L) {
            sink += Math.sqrt(sink + 1);
        }
        if (sink < 0) {
            throw new AssertionError();
        }
    }
}
