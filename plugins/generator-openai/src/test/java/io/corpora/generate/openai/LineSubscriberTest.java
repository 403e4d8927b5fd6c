package io.corpora.generate.openai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Line splitting and SSE framing wherever the network cuts the bytes. A real HTTP stack decides its own buffer
 * boundaries, so these tests hand the subscriber every possible cut of a sample body directly, through the
 * {@link Flow.Subscriber} interface the JDK client calls.
 */
class LineSubscriberTest {

    private static final String SAMPLE = ": comment\r\n"
            + "data: {\"a\":1}\r\n\r\n"
            + "event: x\ndata:first\ndata: second\n\n"
            + "data: é ünïcode ✓\r\r"
            + "data: [DONE]";

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        scheduler.shutdownNow();
    }

    /** A subscription that records what the subscriber asked for. */
    private static final class Recorded implements Flow.Subscription {
        long requested;
        boolean cancelled;

        @Override
        public void request(long n) {
            requested += n;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }
    }

    private List<String> events(byte[] body, int... cuts) {
        List<String> events = new ArrayList<>();
        List<String> ends = new ArrayList<>();
        LineSubscriber subscriber = new LineSubscriber(1 << 20, Duration.ofSeconds(30), scheduler, new SseEventReader(
                new SseEventReader.Events() {
                    @Override
                    public void data(String data) {
                        events.add(data);
                    }

                    @Override
                    public void end() {
                        ends.add("end");
                    }
                }));
        Recorded subscription = new Recorded();
        subscriber.onSubscribe(subscription);
        int from = 0;
        for (int cut : cuts) {
            subscriber.onNext(List.of(ByteBuffer.wrap(body, from, cut - from)));
            from = cut;
        }
        subscriber.onNext(List.of(ByteBuffer.wrap(body, from, body.length - from)));
        subscriber.onComplete();
        subscriber.getBody().toCompletableFuture().join();
        assertEquals(List.of("end"), ends);
        assertEquals(cuts.length + 2, subscription.requested, "one buffer at a time");
        return events;
    }

    @Test
    void everyCutOfTheBodyGivesTheSameEvents() {
        byte[] body = SAMPLE.getBytes(StandardCharsets.UTF_8);
        List<String> expected = List.of("{\"a\":1}", "first\nsecond", "é ünïcode ✓", "[DONE]");
        assertEquals(expected, events(body));
        for (int cut = 1; cut < body.length; cut++) {
            assertEquals(expected, events(body, cut), "cut at byte " + cut);
        }
        for (int cut = 1; cut + 1 < body.length; cut++) {
            assertEquals(expected, events(body, cut, cut + 1), "cuts at bytes " + cut + " and " + (cut + 1));
        }
    }

    @Test
    void aBodyOverTheLimitIsCancelled() {
        List<String> lines = new ArrayList<>();
        LineSubscriber subscriber = new LineSubscriber(10, Duration.ofSeconds(30), scheduler, lines::add);
        Recorded subscription = new Recorded();
        subscriber.onSubscribe(subscription);
        subscriber.onNext(List.of(ByteBuffer.wrap("12345\n".getBytes(StandardCharsets.UTF_8))));
        subscriber.onNext(List.of(ByteBuffer.wrap("67890\n".getBytes(StandardCharsets.UTF_8))));
        assertTrue(subscription.cancelled);
        assertEquals(List.of("12345"), lines);
        CompletionException e = assertThrows(CompletionException.class, () -> subscriber.getBody().toCompletableFuture().join());
        assertInstanceOf(LineSubscriber.TooLarge.class, e.getCause());
    }

    @Test
    void aHandlerFailureCancelsTheBodyAndSkipsTheRest() {
        List<String> lines = new ArrayList<>();
        IllegalStateException refused = new IllegalStateException("refused");
        LineSubscriber subscriber = new LineSubscriber(1 << 20, Duration.ofSeconds(30), scheduler, line -> {
            lines.add(line);
            if (line.equals("two")) {
                throw refused;
            }
        });
        Recorded subscription = new Recorded();
        subscriber.onSubscribe(subscription);
        subscriber.onNext(List.of(ByteBuffer.wrap("one\ntwo\nthree\n".getBytes(StandardCharsets.UTF_8))));
        subscriber.onComplete();
        assertEquals(List.of("one", "two"), lines);
        assertTrue(subscription.cancelled);
        assertEquals(refused, assertThrows(CompletionException.class, () -> subscriber.getBody().toCompletableFuture().join()).getCause());
    }
}
