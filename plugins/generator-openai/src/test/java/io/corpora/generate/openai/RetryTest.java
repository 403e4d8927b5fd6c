package io.corpora.generate.openai;

import io.corpora.testkit.ChatCompletionsStandIn;

import static io.corpora.testkit.ChatCompletionsStandIn.completion;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.status;
import static io.corpora.testkit.ChatCompletionsStandIn.streamOf;
import static io.corpora.generate.openai.TestGenerators.API_KEY;
import static io.corpora.generate.openai.TestGenerators.QUESTION;
import static io.corpora.generate.openai.TestGenerators.await;
import static io.corpora.generate.openai.TestGenerators.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.InvalidInputException;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Retries on 429 and 5xx, waiting at least what {@code Retry-After} asks (measured as a lower bound only), bounded
 * in number; errors that retrying cannot fix are reported at once.
 */
class RetryTest extends StandInTest {


    /** Answers 429 with the given Retry-After, remembering when it sent it. */
    private static ChatCompletionsStandIn.Responder rateLimited(String retryAfter, AtomicLong sentAtNanos) {
        return (exchange, request) -> {
            exchange.getResponseHeaders().set("Retry-After", retryAfter);
            sentAtNanos.set(System.nanoTime());
            ChatCompletionsStandIn.send(exchange, 429, "application/json",
                    "{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\"}}");
        };
    }

    @Test
    void aRateLimitIsRetriedNoSoonerThanRetryAfterSeconds() {
        AtomicLong limitedAt = new AtomicLong();
        standIn.answer(rateLimited("1", limitedAt), completion("after the wait", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertEquals("after the wait", generator.generate(QUESTION).text());
        }
        assertEquals(2, standIn.requests.size());
        Duration waited = Duration.ofNanos(standIn.requests.get(1).arrivedNanos() - limitedAt.get());
        assertTrue(waited.compareTo(Duration.ofSeconds(1)) >= 0, "retried after " + waited.toMillis() + " ms, asked 1000 ms");
    }

    @Test
    void aRetryAfterHttpDateIsHonouredToo() {
        // HTTP-dates have whole seconds: the retry may come no earlier than the second the date names.
        Instant retryAt = Instant.now().plusSeconds(2).truncatedTo(ChronoUnit.SECONDS);
        String date = DateTimeFormatter.RFC_1123_DATE_TIME.format(retryAt.atOffset(ZoneOffset.UTC));
        standIn.answer(rateLimited(date, new AtomicLong()), completion("dated", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertEquals("dated", generator.generate(QUESTION).text());
        }
        Instant retried = standIn.requests.get(1).arrivedAt();
        assertFalse(retried.isBefore(retryAt), "retried at " + retried + ", asked not before " + date);
    }

    @Test
    void aStreamIsRetriedBeforeItBeginsAndDeliversEachDeltaOnce() throws Exception {
        standIn.answer(rateLimited("0", new AtomicLong()), status(503, "{\"error\":{\"message\":\"overloaded\"}}"),
                events(streamOf(List.of("third ", "time"), 2)));
        List<String> deltas = new ArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertEquals("third time", await(generator.stream(QUESTION, deltas::add)).text());
        }
        assertEquals(List.of("third ", "time"), deltas);
        assertEquals(3, standIn.requests.size());
    }

    @Test
    void aServerErrorThenSuccessSucceeds() {
        standIn.answer(status(502, "<html>bad gateway</html>"), completion("recovered", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertEquals("recovered", generator.generate(QUESTION).text());
        }
        assertEquals(2, standIn.requests.size());
    }

    @Test
    void serverErrorsExhaustTheBoundedAttemptsAsATransientFailure() {
        standIn.answer(status(503, "{\"error\":{\"message\":\"The engine is currently overloaded\"}}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of("maxRetries", "2"))) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> generator.generate(QUESTION));
            assertEquals("chat completions endpoint " + standIn.baseUrl() + "/chat/completions answered HTTP 503 to all 3 "
                    + "attempts: The engine is currently overloaded", e.getMessage());
        }
        assertEquals(3, standIn.requests.size());
    }

    @Test
    void zeroRetriesMeansOneAttempt() {
        standIn.answer(status(500, ""));
        try (Generator generator = TestGenerators.of(standIn, Map.of("maxRetries", "0"))) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> generator.generate(QUESTION));
            assertTrue(e.getMessage().endsWith("answered HTTP 500: (empty)"), e.getMessage());
        }
        assertEquals(1, standIn.requests.size());
    }

    @Test
    void aServerAskingForALongerWaitThanAllowedEndsTheRetriesAtOnce() {
        standIn.answer(rateLimited("3600", new AtomicLong()), completion("never", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of("maxRetryDelay", "5s"))) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> generator.generate(QUESTION));
            assertTrue(e.getMessage().contains("answered HTTP 429 and asked to retry after 3600000 ms, longer than "
                    + "'maxRetryDelay' (5000 ms): Rate limit reached for requests"), e.getMessage());
        }
        assertEquals(1, standIn.requests.size());
    }

    @Test
    void authenticationFailuresArePermanentCarryTheServersMessageAndAreNotRetried() {
        standIn.answer(status(401, "{\"error\":{\"message\":\"Incorrect API key provided: sk-test****9f3c.\","
                + "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> generator.generate(QUESTION));
            assertEquals("chat completions endpoint " + standIn.baseUrl() + "/chat/completions answered HTTP 401 (check the "
                    + "'apiKey' option): Incorrect API key provided: sk-test****9f3c.", e.getMessage());
            assertFalse(e.getMessage().contains(API_KEY));
        }
        assertEquals(1, standIn.requests.size());

        standIn.answer(status(403, "{\"error\":\"forbidden for this project\"}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertTrue(assertThrows(IllegalStateException.class, () -> generator.generate(QUESTION)).getMessage()
                    .endsWith("answered HTTP 403 (check the 'apiKey' option): forbidden for this project"));
        }
    }

    @Test
    void aBadRequestIsTheCallersErrorAndIsNotRetried() throws Exception {
        String contextExceeded = "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.";
        standIn.answer(status(400, "{\"error\":{\"message\":\"" + contextExceeded + "\",\"code\":\"context_length_exceeded\"}}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            InvalidInputException plain = assertThrows(InvalidInputException.class, () -> generator.generate(QUESTION));
            assertTrue(plain.getMessage().endsWith("answered HTTP 400 to the request: " + contextExceeded), plain.getMessage());
            GenerationStream stream = generator.stream(QUESTION, delta -> {});
            assertEquals(plain.getMessage(), failureOf(stream, InvalidInputException.class).getMessage());
        }
        assertEquals(2, standIn.requests.size(), "one request per call, none retried");
    }

    @Test
    void anUnknownModelOrPathIsPermanent() {
        standIn.answer(status(404, "{\"error\":{\"message\":\"The model `gpt-9` does not exist\"}}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertTrue(assertThrows(IllegalStateException.class, () -> generator.generate(QUESTION)).getMessage()
                    .contains("HTTP 404 (check the 'baseUrl' and 'model' options, and 'deployment' for Azure): The model `gpt-9` does not exist"));
        }
        assertEquals(1, standIn.requests.size());
    }

    @Test
    void redirectsAreNotFollowed() {
        standIn.answer(status(307, "", "Location", "http://elsewhere.example/v1/chat/completions"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            assertTrue(assertThrows(IllegalStateException.class, () -> generator.generate(QUESTION)).getMessage()
                    .contains("HTTP 307 redirecting to http://elsewhere.example/v1/chat/completions; redirects are not followed"));
        }
        assertEquals(1, standIn.requests.size());
    }

    @Test
    void cancellingDuringARetryWaitEndsTheCallAndSendsNoFurtherRequest() throws Exception {
        standIn.answer(rateLimited("1", new AtomicLong()), completion("too late", "m", 1, 1));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            GenerationStream stream = generator.stream(QUESTION, delta -> {});
            standIn.awaitRequests(1);
            Thread.sleep(100); // the 429 has been answered; the call now waits ≥ 1 s to retry
            stream.cancel();
            assertTrue(stream.result().toCompletableFuture().isCompletedExceptionally(), "cancel completes the result at once");
            failureOf(stream, CancellationException.class);
            Thread.sleep(1500); // past the retry time: the cancelled wait must not fire
        }
        assertEquals(1, standIn.requests.size());
    }
}
