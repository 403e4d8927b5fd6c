package io.corpora.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which answers the client repeats, and how it reads Retry-After. */
class RetryPolicyTest {

    private static CorporaProblemException problem(int status, Duration retryAfter) {
        return new CorporaProblemException(null, status, "t", null, null, retryAfter, Map.of());
    }

    private final RetryPolicy policy = new RetryPolicy(2, Duration.ofSeconds(10));

    @Test
    void a429WithRetryAfterIsRepeatedForEveryCallA503OnlyForIdempotentOnes() {
        assertEquals(3000, policy.waitMillis(0, false, problem(429, Duration.ofSeconds(3))));
        assertEquals(3000, policy.waitMillis(0, true, problem(503, Duration.ofSeconds(3))));
        assertEquals(-1, policy.waitMillis(0, false, problem(503, Duration.ofSeconds(3))));
    }

    @Test
    void nothingElseIsRepeated() {
        assertEquals(-1, policy.waitMillis(0, true, problem(429, null)), "no Retry-After: the server did not say when");
        assertEquals(-1, policy.waitMillis(0, true, problem(500, Duration.ofSeconds(1))));
        assertEquals(-1, policy.waitMillis(0, true, problem(409, Duration.ofSeconds(1))));
        assertEquals(-1, policy.waitMillis(2, true, problem(429, Duration.ofSeconds(1))), "attempts used up");
        assertEquals(-1, policy.waitMillis(0, true, problem(429, Duration.ofSeconds(11))), "longer than maxWait");
        assertEquals(-1, RetryPolicy.NONE.waitMillis(0, true, problem(429, Duration.ofSeconds(1))));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(-1, Duration.ZERO));
    }

    @Test
    void retryAfterIsSecondsOrAnHttpDate() {
        assertEquals(Duration.ofSeconds(7), Problems.retryAfter("7"));
        Duration date = Problems.retryAfter(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now().plusSeconds(30)));
        assertTrue(date.toSeconds() >= 28 && date.toSeconds() <= 30, date.toString());
        assertEquals(Duration.ZERO, Problems.retryAfter(DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now().minusDays(1))));
        assertNull(Problems.retryAfter("soon"));
    }

    @Test
    void theKindIsTheTypesLastSegment() {
        CorporaProblemException p = new CorporaProblemException(java.net.URI.create("https://corpora.dev/problems/document-not-found"), 404,
                "Document not found", "no document 'x'", "r-1", null, Map.of("documentId", "x"));
        assertEquals("document-not-found", p.kind());
        assertTrue(p.getMessage().contains("r-1"), p.getMessage());
        assertTrue(p.retryAfter().isEmpty());
    }
}
