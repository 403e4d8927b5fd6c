package io.corpora.controlplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.tenancy.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class AuditThrottleTest {

    private static final Duration MINUTE = Duration.ofMinutes(1);

    private final ManualClock clock = new ManualClock();

    private AuditThrottle<String> throttle(int perWindow, int maxKeys) {
        return new AuditThrottle<>(clock, MINUTE, perWindow, maxKeys, "*");
    }

    private static int recorded(AuditThrottle<String> throttle, String key, int events) {
        int recorded = 0;
        for (int i = 0; i < events; i++) {
            recorded += throttle.admit(key) ? 1 : 0;
        }
        return recorded;
    }

    @Test
    void theFirstEventsOfAWindowAreRecordedAndTheRestCountedIntoOneSummaryWhenItEnds() {
        AuditThrottle<String> throttle = throttle(5, 100);
        Instant start = clock.instant();
        assertEquals(5, recorded(throttle, "mallory GET /admin/v1/tenants", 1000));
        assertEquals(List.of(), throttle.endedSummaries(), "nothing is summarised before the window ends");

        clock.advance(MINUTE);
        assertEquals(List.of(new AuditThrottle.Summary<>("mallory GET /admin/v1/tenants", false, 995, start, start.plus(MINUTE))),
                throttle.endedSummaries());
        assertEquals(List.of(), throttle.endedSummaries(), "each summary is given once");
        assertEquals(0, throttle.trackedKeys(), "an ended window is forgotten");
    }

    @Test
    void aNewWindowRecordsAgainAndAWindowWithoutSuppressionHasNoSummary() {
        AuditThrottle<String> throttle = throttle(3, 100);
        assertEquals(3, recorded(throttle, "a", 3));
        clock.advance(MINUTE.plusSeconds(1));
        assertEquals(List.of(), throttle.endedSummaries());
        assertEquals(3, recorded(throttle, "a", 10));
        clock.advance(Duration.ofSeconds(30));
        assertEquals(List.of(), throttle.endedSummaries(), "the second window is still open");
        clock.advance(Duration.ofSeconds(30));
        List<AuditThrottle.Summary<String>> summaries = throttle.endedSummaries();
        assertEquals(1, summaries.size());
        assertEquals(7, summaries.get(0).suppressed());
    }

    @Test
    void anEventAfterTheWindowEndedClosesItBeforeStartingTheNext() {
        AuditThrottle<String> throttle = throttle(1, 100);
        recorded(throttle, "a", 4);
        clock.advance(MINUTE);
        assertTrue(throttle.admit("a"), "the first event of the new window is recorded");
        List<AuditThrottle.Summary<String>> summaries = throttle.endedSummaries();
        assertEquals(1, summaries.size(), summaries.toString());
        assertEquals(3, summaries.get(0).suppressed(), "the earlier window's count, not mixed with the new one");
    }

    @Test
    void keysHaveWindowsOfTheirOwn() {
        AuditThrottle<String> throttle = throttle(2, 100);
        assertEquals(2, recorded(throttle, "mallory GET /admin/v1/tenants", 10));
        assertEquals(2, recorded(throttle, "mallory DELETE /admin/v1/tenants/{id}", 10));
        assertEquals(2, recorded(throttle, "eve GET /admin/v1/tenants", 10));
        clock.advance(MINUTE);
        assertEquals(3, throttle.endedSummaries().size());
    }

    @Test
    void keysBeyondTheLimitShareTheOverflowKeySoMemoryAndRowsStayBounded() {
        AuditThrottle<String> throttle = throttle(2, 10);
        int recorded = 0;
        for (int subject = 0; subject < 10_000; subject++) {
            recorded += recorded(throttle, "subject-" + subject, 3);
            assertTrue(throttle.trackedKeys() <= 11, "tracked keys: " + throttle.trackedKeys());
        }
        assertEquals(10 * 2 + 2, recorded, "two per tracked key, two for the overflow key");
        clock.advance(MINUTE);
        List<AuditThrottle.Summary<String>> summaries = throttle.endedSummaries();
        assertEquals(11, summaries.size());
        AuditThrottle.Summary<String> overflow = summaries.stream().filter(AuditThrottle.Summary::overflow).findFirst().orElseThrow();
        assertEquals("*", overflow.key());
        assertEquals(9_990 * 3 - 2, overflow.suppressed());
        long suppressed = summaries.stream().mapToLong(AuditThrottle.Summary::suppressed).sum();
        assertEquals(30_000, recorded + suppressed, "every event is either recorded or counted");
    }

    @Test
    void everyEventIsRecordedOrCountedExactlyOnceUnderRandomTraffic() {
        Random random = new Random(12);
        AuditThrottle<String> throttle = throttle(4, 8);
        long recorded = 0;
        long suppressed = 0;
        int events = 20_000;
        for (int i = 0; i < events; i++) {
            recorded += throttle.admit("k" + random.nextInt(20)) ? 1 : 0;
            clock.advance(Duration.ofMillis(random.nextInt(50)));
            if (random.nextInt(100) == 0) {
                suppressed += throttle.endedSummaries().stream().mapToLong(AuditThrottle.Summary::suppressed).sum();
            }
        }
        suppressed += throttle.allSummaries().stream().mapToLong(AuditThrottle.Summary::suppressed).sum();
        assertEquals(events, recorded + suppressed);
        assertEquals(0, throttle.trackedKeys());
    }

    @Test
    void allSummariesIncludesOpenWindowsSoAShutdownLosesNoCount() {
        AuditThrottle<String> throttle = throttle(1, 100);
        recorded(throttle, "a", 5);
        clock.advance(Duration.ofSeconds(10));
        List<AuditThrottle.Summary<String>> summaries = throttle.allSummaries();
        assertEquals(1, summaries.size());
        assertEquals(4, summaries.get(0).suppressed());
        assertEquals(clock.instant(), summaries.get(0).to());
        assertTrue(throttle.admit("a"), "a fresh window after the flush");
        assertFalse(throttle.admit("a"));
    }

    @Test
    void nonsenseLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AuditThrottle<>(clock, Duration.ZERO, 1, 1, "*"));
        assertThrows(IllegalArgumentException.class, () -> new AuditThrottle<>(clock, MINUTE, 0, 1, "*"));
        assertThrows(IllegalArgumentException.class, () -> new AuditThrottle<>(clock, MINUTE, 1, 0, "*"));
    }
}
