package io.corpora.generate.openai;

import java.math.BigDecimal;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * When a chat-completions call is tried again, and after how long. Retried: 408, 429 and 5xx answers (except 501
 * and 505, which will not change) and connections that failed before any answer; never a timeout (the caller
 * already waited the whole {@code timeout}) and never once the answer has begun. The wait is exponential backoff
 * with jitter, or — when the server asks with {@code retry-after-ms} (OpenAI) or {@code Retry-After} (seconds or an
 * HTTP-date) — at least what it asked, plus jitter so that clients told the same time do not return together.
 *
 * @param maxRetries attempts after the first
 * @param baseDelay  the backoff before the first retry; it doubles for each further one
 * @param maxDelay   the longest single wait: backoff is capped there, and a server asking for longer ends the retries
 */
record RetryPolicy(int maxRetries, Duration baseDelay, Duration maxDelay) {

    static boolean isRetryable(int status) {
        return status == 408 || status == 429 || (status >= 500 && status <= 599 && status != 501 && status != 505);
    }

    /**
     * The wait before retry {@code retry} (1 for the first). Without a requested wait: half the capped backoff
     * plus a uniformly random part of the other half. With one: the requested wait plus up to half the backoff.
     */
    Duration delayBefore(int retry, Optional<Duration> requested) {
        long base = baseDelay.toNanos();
        long backoff = Math.min(maxDelay.toNanos(), retry >= 62 ? Long.MAX_VALUE : saturatedShift(base, retry - 1));
        long jitter = backoff <= 1 ? 0 : ThreadLocalRandom.current().nextLong(backoff / 2 + 1);
        if (requested.isPresent()) {
            return requested.get().plusNanos(jitter);
        }
        return Duration.ofNanos(backoff - backoff / 2 + jitter);
    }

    /** Whether a requested wait is longer than this policy waits at once. */
    boolean tooLong(Duration requested) {
        return requested.compareTo(maxDelay) > 0;
    }

    /**
     * The wait a response asks for: {@code retry-after-ms} (milliseconds, OpenAI's) first, else {@code Retry-After} in
     * seconds or as an HTTP-date (a date in the past means now). Empty when neither is present or parses.
     */
    static Optional<Duration> requestedWait(HttpHeaders headers, Instant now) {
        Optional<Duration> millis = headers.firstValue("retry-after-ms").flatMap(RetryPolicy::millis);
        if (millis.isPresent()) {
            return millis;
        }
        return headers.firstValue("Retry-After").flatMap(value -> retryAfter(value, now));
    }

    static Optional<Duration> retryAfter(String value, Instant now) {
        String text = value.trim();
        if (text.matches("\\d{1,18}")) {
            return Optional.of(Duration.ofSeconds(Long.parseLong(text)));
        }
        if (text.matches("\\d+")) {
            return Optional.of(Duration.ofSeconds(Long.MAX_VALUE / 1_000_000_000L)); // absurdly long: longer than any cap
        }
        try {
            Instant at = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return Optional.of(at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    private static Optional<Duration> millis(String value) {
        try {
            BigDecimal ms = new BigDecimal(value.trim());
            if (ms.signum() < 0) {
                return Optional.empty();
            }
            BigDecimal nanos = ms.movePointRight(6).min(BigDecimal.valueOf(Long.MAX_VALUE));
            return Optional.of(Duration.ofNanos(nanos.longValue()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static long saturatedShift(long value, int bits) {
        return value > (Long.MAX_VALUE >> bits) ? Long.MAX_VALUE : value << bits;
    }
}
