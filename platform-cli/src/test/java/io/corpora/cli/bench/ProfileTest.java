package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ProfileTest {

    @Test
    void theFullProfileIsIssue19sDeploymentShape() {
        Profile full = Profile.named("full");
        assertEquals(10_000, full.tenants());
        assertEquals(100_000, full.sizeOf(1), "the largest tenant");
        long total = full.totalChunks();
        assertTrue(total > 950_000 && total < 1_050_000, "about a million chunks, got " + total);
        assertTrue(full.sizeOf(full.tenants()) >= full.smallest());
        for (int rank = 2; rank <= full.tenants(); rank++) {
            assertTrue(full.sizeOf(rank) <= full.sizeOf(rank - 1), "sizes fall with rank (Zipf)");
        }
    }

    @Test
    void unknownProfilesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Profile.named("huge"));
    }

    @Test
    void latencyCountsEveryOperationAndOrdersPercentiles() {
        AtomicInteger calls = new AtomicInteger();
        Latency.Result r = Latency.measure(2, Duration.ofMillis(200), Duration.ofMillis(100), q -> {
            calls.incrementAndGet();
            if (q % 10 == 0) {
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        });
        assertTrue(r.warmupOperations() > 0, "the warm-up ran");
        assertEquals(calls.get() - r.warmupOperations(), r.operations(), "the warm-up is not measured, everything else is");
        assertTrue(r.p50Ms() <= r.p99Ms());
        assertTrue(r.p99Ms() >= 1.5, "the slow tenth shows at p99: " + r.p99Ms());
        assertEquals(2.0, Latency.percentile(new long[] {1_000_000, 2_000_000, 3_000_000}, 0.5), 1e-9);
    }
}
