package io.corpora.spi.generate;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * Generates text from a chat with one language model (its {@link #modelId()}). Since SPI 1.2.
 *
 * <p><b>Threads.</b> Implementations are thread-safe: one instance serves concurrent calls, each independent.
 *
 * <p><b>Failures</b>, the same for {@link #generate} (thrown) and {@link #stream} (completing its result):
 * <ul>
 *   <li>{@link io.corpora.spi.InvalidInputException} — a <em>caller error</em>: the backend refused what was asked
 *       (e.g. messages longer than the model's context window). Retrying the same request cannot succeed.</li>
 *   <li>{@link java.io.UncheckedIOException} — a <em>transient</em> failure: the backend was unreachable, too slow (the
 *       cause is then an {@link java.net.http.HttpTimeoutException}), overloaded or rate-limited beyond the generator's
 *       own retries, or broke off mid-answer. The same request may succeed later.</li>
 *   <li>{@link IllegalStateException} — a <em>permanent</em> failure: the generator is misconfigured or not allowed
 *       (wrong credentials, unknown model), or the backend answered outside its protocol. Retrying will not help until
 *       someone changes the configuration or the backend.</li>
 *   <li>{@link java.util.concurrent.CancellationException} — the call was cancelled ({@link GenerationStream#cancel()},
 *       or the thread waiting in {@link #generate} was interrupted; its interrupt flag is then set again).</li>
 * </ul>
 * A {@link io.corpora.spi.PluginException} states its kind itself (the SPI's failure contract); the three types above
 * are read as caller error, transient and permanent respectively.
 * Any other exception is the generator's own defect, to be treated as permanent. Messages name the backend and the
 * status it answered, never a credential.
 */
public interface Generator extends AutoCloseable {

    /** The model this generator is configured to call, e.g. {@code gpt-4o-mini} or a self-hosted model's name. */
    String modelId();

    /** Generates the whole answer, blocking until it is complete; throws the failures listed above. */
    Generation generate(GenerationRequest request);

    /**
     * Whether {@link #stream} delivers the answer piece by piece as the model produces it. When false, {@code stream}
     * runs {@link #generate} on the calling thread and delivers the whole text as one delta before it returns.
     */
    default boolean streamsDeltas() {
        return false;
    }

    /**
     * Starts generating and returns at once, delivering the answer to {@code deltas} as it is produced: non-empty text
     * fragments, in order, one call at a time (each call happens-before the next); a generator that
     * {@link #streamsDeltas() streams} calls it on a thread of its own, as the fragments arrive. The
     * returned stream completes after the last delta; failures complete it instead of being thrown (only null
     * arguments throw). If {@code deltas} throws, the generation is cancelled and the result completes with that
     * exception. A consumer should not block for long: it holds up the backend's connection.
     */
    default GenerationStream stream(GenerationRequest request, Consumer<String> deltas) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(deltas, "deltas");
        try {
            Generation generation = generate(request);
            if (!generation.text().isEmpty()) {
                deltas.accept(generation.text());
            }
            return GenerationStream.completed(generation);
        } catch (RuntimeException e) {
            return GenerationStream.failed(e);
        }
    }

    @Override
    default void close() {}
}
