package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void threadsOfOneKindShareOneName() {
        assertEquals("embedder-onnx", ThreadCpu.kind("embedder-onnx-3"));
        assertEquals("C2 CompilerThre", ThreadCpu.kind("C2 CompilerThre"));
        assertEquals("Lucene Merge Thread", ThreadCpu.kind("Lucene Merge Thread #12"));
        assertEquals("GC Thread", ThreadCpu.kind("GC Thread#1"));
    }

    /** This JVM's own threads (names within the kernel's 15 characters): a thread that burns CPU shows under its kind, and one that ended shows as ended. */
    @Test
    void cpuIsCountedByKindAndThatOfEndedThreadsIsKept() throws Exception {
        long pid = ProcessHandle.current().pid();
        ThreadCpu before = ThreadCpu.of(pid);
        for (String name : new String[] {"burn-ended-1", "burn-ended-2"}) {
            Thread ended = new Thread(ThreadCpuTest::burn, name);
            ended.start();
            ended.join();
        }
        // A third one burns and stays alive until the snapshot is taken.
        CountDownLatch snapshotTaken = new CountDownLatch(1);
        Thread running = new Thread(() -> {
            burn();
            try {
                snapshotTaken.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "burn-running-1");
        running.start();
        Map<String, Double> spent;
        long deadline = System.nanoTime() + 30_000_000_000L;
        try {
            while (ThreadCpu.of(pid).secondsByKind().getOrDefault("burn-running", 0.0) < 0.2 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            spent = ThreadCpu.of(pid).since(before);
        } finally {
            snapshotTaken.countDown();
            running.join();
        }
        assertTrue(spent.getOrDefault("burn-running", 0.0) >= 0.2, spent.toString());
        assertTrue(spent.get(ThreadCpu.ENDED) >= 0.4, "the two burners that ended took ~0.5 s each with them: " + spent);
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
