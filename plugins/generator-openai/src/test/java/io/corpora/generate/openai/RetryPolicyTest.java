package io.corpora.generate.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The retry decisions and waits, without a network: which statuses, how long, and what a server may ask. */
class RetryPolicyTest {

    private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    private final RetryPolicy policy = new RetryPolicy(3, Duration.ofMillis(400), Duration.ofSeconds(2));

    private static HttpHeaders headers(Map<String, List<String>> values) {
        return HttpHeaders.of(values, (name, value) -> true);
    }

    @Test
    void onlyStatusesThatMayPassAreRetried() {
        for (int status : new int[] {408, 429, 500, 502, 503, 504, 529}) {
            assertTrue(RetryPolicy.isRetryable(status), String.valueOf(status));
        }
        for (int status : new int[] {200, 302, 400, 401, 403, 404, 409, 413, 422, 501, 505}) {
            assertFalse(RetryPolicy.isRetryable(status), String.valueOf(status));
        }
    }

    @Test
    void backoffDoublesIsCappedAndJittered() {
        Set<Duration> firstWaits = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            Duration first = policy.delayBefore(1, Optional.empty());
            assertTrue(first.compareTo(Duration.ofMillis(200)) >= 0 && first.compareTo(Duration.ofMillis(400)) <= 0, first.toString());
            firstWaits.add(first);
            Duration second = policy.delayBefore(2, Optional.empty());
            assertTrue(second.compareTo(Duration.ofMillis(400)) >= 0 && second.compareTo(Duration.ofMillis(800)) <= 0, second.toString());
            Duration late = policy.delayBefore(9, Optional.empty());
            assertTrue(late.compareTo(Duration.ofSeconds(1)) >= 0 && late.compareTo(Duration.ofSeconds(2)) <= 0, "capped: " + late);
        }
        assertTrue(firstWaits.size() > 100, "jitter spreads the waits: " + firstWaits.size() + " distinct of 200");
    }

    @Test
    void aRequestedWaitIsAFloorWithJitterOnTop() {
        for (int i = 0; i < 100; i++) {
            Duration wait = policy.delayBefore(1, Optional.of(Duration.ofSeconds(1)));
            assertTrue(wait.compareTo(Duration.ofSeconds(1)) >= 0 && wait.compareTo(Duration.ofMillis(1200)) <= 0, wait.toString());
        }
        assertTrue(policy.tooLong(Duration.ofMillis(2001)));
        assertFalse(policy.tooLong(Duration.ofSeconds(2)));
    }

    @Test
    void retryAfterIsReadAsSecondsOrAnHttpDate() {
        assertEquals(Optional.of(Duration.ofSeconds(7)), RetryPolicy.retryAfter(" 7 ", NOW));
        assertEquals(Optional.of(Duration.ofSeconds(90)), RetryPolicy.retryAfter("Sun, 1 Mar 2026 12:01:30 GMT", NOW));
        assertEquals(Optional.of(Duration.ZERO), RetryPolicy.retryAfter("Sun, 1 Mar 2026 11:00:00 GMT", NOW), "a past date: now");
        assertTrue(RetryPolicy.retryAfter("99999999999999999999999", NOW).orElseThrow().compareTo(Duration.ofDays(365)) > 0);
        assertEquals(Optional.empty(), RetryPolicy.retryAfter("soon", NOW));
        assertEquals(Optional.empty(), RetryPolicy.retryAfter("-5", NOW));
    }

    @Test
    void openAisMillisecondHeaderComesFirst() {
        HttpHeaders both = headers(Map.of("retry-after-ms", List.of("1500.5"), "Retry-After", List.of("2")));
        assertEquals(Optional.of(Duration.ofNanos(1_500_500_000L)), RetryPolicy.requestedWait(both, NOW));
        HttpHeaders badMillis = headers(Map.of("retry-after-ms", List.of("-1"), "Retry-After", List.of("2")));
        assertEquals(Optional.of(Duration.ofSeconds(2)), RetryPolicy.requestedWait(badMillis, NOW));
        assertEquals(Optional.empty(), RetryPolicy.requestedWait(headers(Map.of()), NOW));
    }
}
