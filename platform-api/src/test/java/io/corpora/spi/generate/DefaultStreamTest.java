package io.corpora.spi.generate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.InvalidInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A generator that only implements {@link Generator#generate} still streams through the default
 * {@link Generator#stream}: the whole answer as one delta, failures in the result instead of thrown.
 */
class DefaultStreamTest {

    private static final GenerationRequest REQUEST = GenerationRequest.of(ChatMessage.user("Say hello"));

    /** A generator answering with a function of the request: the smallest real implementation of the interface. */
    private static Generator answering(Function<GenerationRequest, Generation> answer) {
        return new Generator() {
            @Override
            public String modelId() {
                return "echo";
            }

            @Override
            public Generation generate(GenerationRequest request) {
                return answer.apply(request);
            }
        };
    }

    private static Throwable failureOf(GenerationStream stream) {
        CompletableFuture<Generation> result = stream.result().toCompletableFuture();
        assertTrue(result.isDone(), "the default stream finishes before it returns");
        return assertThrows(CompletionException.class, result::join).getCause();
    }

    @Test
    void theWholeAnswerArrivesAsOneDeltaBeforeStreamReturns() {
        Generator generator = answering(request -> new Generation("Hello, " + request.messages().size() + " message",
                "echo-1", new TokenUsage(3, 4, null), FinishReason.STOP));
        assertFalse(generator.streamsDeltas());
        List<String> deltas = new ArrayList<>();

        GenerationStream stream = generator.stream(REQUEST, deltas::add);

        assertEquals(List.of("Hello, 1 message"), deltas);
        Generation generation = stream.result().toCompletableFuture().getNow(null);
        assertEquals("Hello, 1 message", generation.text());
        assertEquals(7, generation.usage().totalTokens());
        stream.cancel();
        assertSame(generation, stream.result().toCompletableFuture().join(), "cancelling a finished stream changes nothing");
    }

    @Test
    void anEmptyAnswerDeliversNoDelta() {
        AtomicInteger calls = new AtomicInteger();
        GenerationStream stream = answering(request -> new Generation("", "echo", null, FinishReason.LENGTH))
                .stream(REQUEST, delta -> calls.incrementAndGet());
        assertEquals(0, calls.get());
        assertTrue(stream.result().toCompletableFuture().join().truncated());
    }

    @Test
    void aFailureCompletesTheResultInsteadOfBeingThrown() {
        InvalidInputException tooLong = new InvalidInputException("context window exceeded");
        GenerationStream stream = answering(request -> {
            throw tooLong;
        }).stream(REQUEST, delta -> {
            throw new AssertionError("no delta expected");
        });
        assertSame(tooLong, failureOf(stream));
    }

    @Test
    void aThrowingConsumerFailsTheResultWithItsException() {
        IllegalStateException clientGone = new IllegalStateException("client disconnected");
        GenerationStream stream = answering(request -> new Generation("text", "echo", null, null)).stream(REQUEST, delta -> {
            throw clientGone;
        });
        assertSame(clientGone, failureOf(stream));
    }

    @Test
    void nullArgumentsAreTheOnlyThingsThrown() {
        Generator generator = answering(request -> new Generation("x", "echo", null, null));
        assertThrows(NullPointerException.class, () -> generator.stream(null, delta -> {}));
        assertThrows(NullPointerException.class, () -> generator.stream(REQUEST, null));
    }
}
