package io.corpora.generate.openai;

import io.corpora.testkit.ChatCompletionsStandIn;

import static io.corpora.testkit.ChatCompletionsStandIn.delta;
import static io.corpora.testkit.ChatCompletionsStandIn.events;
import static io.corpora.testkit.ChatCompletionsStandIn.status;
import static io.corpora.testkit.ChatCompletionsStandIn.write;
import static io.corpora.testkit.ChatCompletionsStandIn.writeEvent;
import static io.corpora.generate.openai.TestGenerators.HANG_SECONDS;
import static io.corpora.generate.openai.TestGenerators.QUESTION;
import static io.corpora.generate.openai.TestGenerators.failureOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What goes wrong mid-call: malformed answers are typed failures, stalls time out, cancellation closes the
 * connection — never a hang, never a silently shortened answer.
 */
class FailureTest extends StandInTest {

    private final CountDownLatch releaseStalledHandlers = new CountDownLatch(1);

    @AfterEach
    void releaseStalledHandlers() {
        releaseStalledHandlers.countDown(); // runs before the stand-in stops
    }

    private void stall() {
        try {
            releaseStalledHandlers.await(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Every 20 ms writes two chunks at once (so that they usually reach the client in one buffer), until a write fails
     * because the client closed the connection; then counts {@code closed} down.
     */
    private ChatCompletionsStandIn.Responder endlessStream(CountDownLatch closed) {
        return (exchange, request) -> {
            OutputStream out = ChatCompletionsStandIn.startStream(exchange);
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
            try {
                for (int i = 0; System.nanoTime() < giveUp; i++) {
                    write(out, "data: " + delta("tick" + i + "a ") + "\n\ndata: " + delta("tick" + i + "b ") + "\n\n");
                    Thread.sleep(20);
                }
            } catch (IOException e) {
                closed.countDown();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }

    /** Holds the response back until {@code go} (so the client is still waiting for it), then streams endlessly. */
    private ChatCompletionsStandIn.Responder endlessStreamOnce(CountDownLatch go, CountDownLatch closed) {
        return (exchange, request) -> {
            awaitQuietly(go);
            endlessStream(closed).respond(exchange, request);
        };
    }

    @Test
    void aChunkThatIsNotJsonFailsTheStreamAfterTheGoodDeltas() throws Exception {
        standIn.answer(events(delta("Hello"), "{\"choices\": [ {\"delta\": "));
        List<String> deltas = new CopyOnWriteArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            MalformedResponseException e = failureOf(generator.stream(QUESTION, deltas::add), MalformedResponseException.class);
            assertEquals("chat completions endpoint " + standIn.baseUrl() + "/chat/completions sent stream chunk 2 something "
                    + "that is not JSON: {\"choices\": [ {\"delta\":", e.getMessage());
        }
        assertEquals(List.of("Hello"), deltas);
    }

    @Test
    void chunksOutsideTheProtocolAreTypedFailures() throws Exception {
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            standIn.answer(events("{\"id\":\"x\",\"object\":\"chat.completion.chunk\"}"));
            assertTrue(failureOf(generator.stream(QUESTION, d -> {}), MalformedResponseException.class).getMessage()
                    .contains("sent stream chunk 1 without 'choices'"));

            standIn.answer(events("{\"choices\":[{\"delta\":{\"content\":42}}]}"));
            assertTrue(failureOf(generator.stream(QUESTION, d -> {}), MalformedResponseException.class).getMessage()
                    .contains("with a non-text 'choices[0].delta.content'"));

            standIn.answer(events("[1, 2]"));
            assertTrue(failureOf(generator.stream(QUESTION, d -> {}), MalformedResponseException.class).getMessage()
                    .contains("JSON that is not an object: [1, 2]"));
        }
    }

    @Test
    void aPlainAnswerOutsideTheProtocolIsATypedFailure() {
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            standIn.answer(status(200, "<html>captive portal</html>"));
            assertTrue(assertThrows(MalformedResponseException.class, () -> generator.generate(QUESTION)).getMessage()
                    .endsWith("answered something that is not JSON: <html>captive portal</html>"));

            standIn.answer(status(200, "{\"object\":\"chat.completion\",\"choices\":[]}"));
            assertTrue(assertThrows(MalformedResponseException.class, () -> generator.generate(QUESTION)).getMessage()
                    .contains("answered without 'choices'"));

            standIn.answer(status(200, "{\"choices\":[{\"index\":0}]}"));
            assertTrue(assertThrows(MalformedResponseException.class, () -> generator.generate(QUESTION)).getMessage()
                    .contains("answered without 'choices[0].message'"));
        }
    }

    @Test
    void aStreamThatEndsBeforeItsAnswerIsCompleteIsATransientFailureNotAShortAnswer() throws Exception {
        standIn.answer((exchange, request) -> {
            try (OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                writeEvent(out, delta("The policy is"));
            }
        });
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            UncheckedIOException e = failureOf(generator.stream(QUESTION, d -> {}), UncheckedIOException.class);
            assertTrue(e.getMessage().endsWith("ended its stream after 1 chunks without a finish reason or 'data: [DONE]'"),
                    e.getMessage());
        }
    }

    @Test
    void anErrorEventMidStreamFailsTheStreamWithTheServersMessage() throws Exception {
        standIn.answer(events(delta("partial"), "{\"error\":{\"message\":\"upstream model crashed\",\"code\":500}}"));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            UncheckedIOException e = failureOf(generator.stream(QUESTION, d -> {}), UncheckedIOException.class);
            assertTrue(e.getMessage().endsWith("reported an error mid-stream: upstream model crashed"), e.getMessage());
        }
    }

    @Test
    void anAnswerOverTheSizeBoundIsRefused() throws Exception {
        standIn.answer(events(delta("x".repeat(4000))));
        try (Generator generator = TestGenerators.of(standIn, Map.of("maxResponseBytes", "2048"))) {
            IllegalStateException e = failureOf(generator.stream(QUESTION, d -> {}), IllegalStateException.class);
            assertTrue(e.getMessage().endsWith("answered more than 2048 bytes (option 'maxResponseBytes')"), e.getMessage());
        }
    }

    @Test
    void aServerThatNeverAnswersTimesOutAndIsNotRetried() {
        standIn.answer((exchange, request) -> stall());
        try (Generator generator = TestGenerators.of(standIn, Map.of("timeout", "300ms", "maxRetries", "2"))) {
            long start = System.nanoTime();
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> generator.generate(QUESTION));
            Duration waited = Duration.ofNanos(System.nanoTime() - start);
            assertInstanceOf(HttpTimeoutException.class, e.getCause());
            assertTrue(e.getMessage().endsWith("did not answer within 300 ms (option 'timeout')"), e.getMessage());
            assertTrue(waited.compareTo(Duration.ofMillis(300)) >= 0, "gave up after " + waited.toMillis() + " ms");
        }
        assertEquals(1, standIn.requests.size(), "a timeout is not retried: the caller already waited the whole timeout");
    }

    @Test
    void aStreamThatStallsMidAnswerTimesOut() throws Exception {
        standIn.answer((exchange, request) -> {
            OutputStream out = ChatCompletionsStandIn.startStream(exchange);
            writeEvent(out, delta("Guests may"));
            stall();
        });
        List<String> deltas = new CopyOnWriteArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of("timeout", "300ms"))) {
            UncheckedIOException e = failureOf(generator.stream(QUESTION, deltas::add), UncheckedIOException.class);
            assertInstanceOf(HttpTimeoutException.class, e.getCause());
            assertTrue(e.getMessage().endsWith("sent nothing for 300 ms in the middle of its answer (option 'timeout')"),
                    e.getMessage());
        }
        assertEquals(List.of("Guests may"), deltas);
    }

    @Test
    void keepAliveCommentsKeepAStreamAlive() throws Exception {
        standIn.answer((exchange, request) -> {
            try (OutputStream out = ChatCompletionsStandIn.startStream(exchange)) {
                for (int i = 0; i < 6; i++) { // 600 ms of thinking, longer than the timeout, in 100 ms steps
                    write(out, ": still processing\n\n");
                    sleep(100);
                }
                writeEvent(out, delta("thought it through"));
                writeEvent(out, ChatCompletionsStandIn.finishChunk("stop"));
                writeEvent(out, "[DONE]");
            }
        });
        try (Generator generator = TestGenerators.of(standIn, Map.of("timeout", "300ms"))) {
            assertEquals("thought it through", TestGenerators.await(generator.stream(QUESTION, d -> {})).text());
        }
    }

    @Test
    void cancellingMidStreamClosesTheConnection() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        CountDownLatch firstDelta = new CountDownLatch(1);
        standIn.answer(endlessStream(closed));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            GenerationStream stream = generator.stream(QUESTION, delta -> firstDelta.countDown());
            assertTrue(firstDelta.await(HANG_SECONDS, TimeUnit.SECONDS));
            stream.cancel(); // as a client disconnect would, from another thread

            assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
            failureOf(stream, CancellationException.class);
        }
    }

    @Test
    void cancellingFromInsideTheConsumerStopsDeltasAtOnce() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        standIn.answer(endlessStream(closed));
        List<String> deltas = new CopyOnWriteArrayList<>();
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            GenerationStream[] stream = new GenerationStream[1];
            CountDownLatch started = new CountDownLatch(1);
            stream[0] = generator.stream(QUESTION, delta -> {
                deltas.add(delta);
                if (deltas.size() == 3) {
                    awaitQuietly(started);
                    stream[0].cancel();
                }
            });
            started.countDown();
            assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
            failureOf(stream[0], CancellationException.class);
        }
        assertEquals(List.of("tick0a ", "tick0b ", "tick1a "), deltas, "no delta after the cancel, not even one already received");
    }

    @Test
    void aConsumerThatThrowsEndsTheStreamWithItsExceptionAndClosesTheConnection() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        standIn.answer(endlessStream(closed));
        IllegalStateException clientGone = new IllegalStateException("SSE client disconnected");
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            GenerationStream stream = generator.stream(QUESTION, delta -> {
                throw clientGone;
            });
            assertEquals(clientGone, TestGenerators.failureOf(stream));
            assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
        }
    }

    @Test
    void cancellingBeforeTheAnswerBeginsAbandonsTheExchange() throws Exception {
        CountDownLatch cancelled = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        standIn.answer(endlessStreamOnce(cancelled, closed));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            GenerationStream stream = generator.stream(QUESTION, delta -> {});
            standIn.awaitRequests(1);
            stream.cancel();
            cancelled.countDown();
            failureOf(stream, CancellationException.class);
            assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
        }
    }

    @Test
    void interruptingAPlainCallCancelsItAndKeepsTheInterrupt() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        standIn.answer(endlessStreamOnce(interrupted, closed));
        try (Generator generator = TestGenerators.of(standIn, Map.of())) {
            CompletableFuture<Throwable> thrown = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    generator.generate(QUESTION);
                    thrown.complete(null);
                } catch (RuntimeException e) {
                    thrown.complete(Thread.currentThread().isInterrupted() ? e : new AssertionError("interrupt flag cleared", e));
                }
            });
            caller.start();
            standIn.awaitRequests(1);
            caller.interrupt();
            assertInstanceOf(CancellationException.class, thrown.get(HANG_SECONDS, TimeUnit.SECONDS));
            interrupted.countDown();
            assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
        }
    }

    @Test
    void closingTheGeneratorCancelsItsStreamsAndRefusesNewCalls() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        CountDownLatch firstDelta = new CountDownLatch(1);
        standIn.answer(endlessStream(closed));
        Generator generator = TestGenerators.of(standIn, Map.of());
        GenerationStream stream = generator.stream(QUESTION, delta -> firstDelta.countDown());
        assertTrue(firstDelta.await(HANG_SECONDS, TimeUnit.SECONDS));

        generator.close();

        failureOf(stream, CancellationException.class);
        assertTrue(closed.await(HANG_SECONDS, TimeUnit.SECONDS), "the stand-in never saw the connection closed");
        assertTrue(assertThrows(IllegalStateException.class, () -> generator.generate(QUESTION)).getMessage().endsWith("is closed"));
        failureOf(generator.stream(QUESTION, delta -> {}), IllegalStateException.class);
    }

    @Test
    void anUnreachableEndpointIsRetriedThenATransientFailure() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        try (Generator generator = TestGenerators.create(Map.of("baseUrl", "http://127.0.0.1:" + closedPort + "/v1",
                "model", "m", "retryDelay", "10ms", "maxRetries", "1"))) {
            UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> generator.generate(QUESTION));
            assertTrue(e.getMessage().startsWith("could not connect to chat completions endpoint http://127.0.0.1:" + closedPort
                    + "/v1/chat/completions"), e.getMessage());
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(HANG_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
