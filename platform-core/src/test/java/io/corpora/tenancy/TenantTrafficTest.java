package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class TenantTrafficTest {

    private final AtomicLong clock = new AtomicLong(1_000 * TenantTraffic.SLOT_NANOS);
    private final TenantTraffic traffic = new TenantTraffic(clock::get);

    @Test
    void rateAndP95CoverTheLastMinuteOnly() {
        for (int i = 1; i <= 100; i++) {
            traffic.record("acme", i * 1_000_000L); // 1 … 100 ms
        }
        TenantTraffic.Summary summary = traffic.summary("acme").orElseThrow();
        assertEquals(100, summary.requestsPerMinute());
        assertTrue(summary.p95Millis() >= 95 && summary.p95Millis() <= 95 * 1.25, "p95 within one bin of 95 ms: " + summary.p95Millis());
        assertEquals(Optional.empty(), traffic.summary("globex"), "no requests, no figures");

        clock.addAndGet(3 * TenantTraffic.SLOT_NANOS);
        traffic.record("acme", 2_000_000L);
        assertEquals(101, traffic.summary("acme").orElseThrow().requestsPerMinute(), "still within the minute");

        clock.addAndGet(4 * TenantTraffic.SLOT_NANOS);
        assertEquals(1, traffic.summary("acme").orElseThrow().requestsPerMinute(), "the first burst slid out");
        clock.addAndGet(TenantTraffic.SLOTS * TenantTraffic.SLOT_NANOS);
        assertEquals(Optional.empty(), traffic.summary("acme"));
        traffic.evictStale();
        assertEquals(0, traffic.tracked(), "a quiet tenant costs nothing");
    }

    @Test
    void aForgottenTenantHasNoFiguresUntilItsNextRequestAndOthersKeepTheirs() {
        traffic.record("acme", 1_000_000L);
        traffic.record("globex", 1_000_000L);
        traffic.forget("acme");
        assertEquals(Optional.empty(), traffic.summary("acme"));
        assertEquals(1, traffic.tracked());
        assertEquals(1, traffic.summary("globex").orElseThrow().requestsPerMinute());
        traffic.record("acme", 1_000_000L);
        assertEquals(1, traffic.summary("acme").orElseThrow().requestsPerMinute(), "counted again from its next request");
    }

    @Test
    void binsAreLogarithmic() {
        assertEquals(0, TenantTraffic.bin(0.05));
        assertTrue(TenantTraffic.upperEdgeMillis(TenantTraffic.bin(10)) >= 10);
        assertTrue(TenantTraffic.upperEdgeMillis(TenantTraffic.bin(10)) < 12.5);
        assertEquals(TenantTraffic.BINS - 1, TenantTraffic.bin(1e12));
    }
}
