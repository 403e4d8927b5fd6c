package {{package}};

import io.corpora.spi.generate.ChatRole;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.FinishReason;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.TokenUsage;

/**
 * A starting point with no model: it answers with the last user message, truncated to {@code maxTokens} words.
 * Replace {@link #generate} with a call to your model service; report usage when the service does.
 */
final class {{Class}}Generator implements Generator {

    private final String model;

    {{Class}}Generator(String model) {
        this.model = model;
    }

    @Override
    public String modelId() {
        return model;
    }

    @Override
    public Generation generate(GenerationRequest request) {
        String last = request.messages().stream().filter(m -> m.role() == ChatRole.USER)
                .reduce((first, second) -> second).map(ChatMessage::content).orElse("");
        String[] words = last.isBlank() ? new String[0] : last.strip().split("\\s+");
        int limit = request.maxTokens() == null ? words.length : Math.min(words.length, request.maxTokens());
        String text = String.join(" ", java.util.Arrays.copyOf(words, limit));
        FinishReason reason = limit < words.length ? FinishReason.LENGTH : FinishReason.STOP;
        return new Generation(text, model, new TokenUsage(null, limit, null), reason);
    }
}
