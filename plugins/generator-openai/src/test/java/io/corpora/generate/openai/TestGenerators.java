package io.corpora.generate.openai;

import io.corpora.testkit.ChatCompletionsStandIn;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/** Creates generators the way the server does (ServiceLoader, declared options validated) and waits for results. */
final class TestGenerators {

    static final String API_KEY = "sk-test-9f3c";
    static final GenerationRequest QUESTION = GenerationRequest.of(ChatMessage.system("Answer from the context."),
            ChatMessage.user("What is the lodging policy?"));
    /**
     * How long a test waits for a result before calling the call hung. Not a performance bound: every call in
     * these tests finishes (or fails) within a second or two, and this is far beyond that.
     */
    static final long HANG_SECONDS = 30;

    private TestGenerators() {}

    static GeneratorProvider provider() {
        return ServiceLoader.load(GeneratorProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("openai")).findFirst().orElseThrow();
    }

    static Generator create(Map<String, String> options) {
        GeneratorProvider provider = provider();
        return provider.create(PluginContext.of(Path.of("target"), "test"),
                PluginConfig.validate("openai", provider.configOptions(), options));
    }

    /** A generator of the stand-in, with a key, fast retries, and {@code extra} options on top. */
    static Generator of(ChatCompletionsStandIn standIn, Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of("baseUrl", standIn.baseUrl(), "model", "stand-in-model",
                "apiKey", API_KEY, "retryDelay", "10ms"));
        options.putAll(extra);
        return create(options);
    }

    static Generation await(GenerationStream stream) throws Exception {
        return stream.result().toCompletableFuture().get(HANG_SECONDS, TimeUnit.SECONDS);
    }

    /** The exception a stream's result completed with. */
    static Throwable failureOf(GenerationStream stream) throws Exception {
        CompletableFuture<Generation> result = stream.result().toCompletableFuture();
        ExecutionException e = assertThrows(ExecutionException.class, () -> result.get(HANG_SECONDS, TimeUnit.SECONDS));
        return e.getCause();
    }

    static <T extends Throwable> T failureOf(GenerationStream stream, Class<T> type) throws Exception {
        Throwable failure = failureOf(stream);
        assertTrue(type.isInstance(failure), "expected " + type.getSimpleName() + ", got " + failure);
        return type.cast(failure);
    }
}
