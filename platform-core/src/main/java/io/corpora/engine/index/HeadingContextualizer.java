package io.corpora.engine.index;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Index-time context: the text that is embedded and keyword-indexed is the document title and the heading path
 * followed by the chunk ({@code "Expense Policy > Lodging\n\n<chunk>"}), so a chunk that never repeats its
 * section's subject is still found by it. The stored and returned text stays the clean chunk
 * ({@link EmbeddedChunk#indexText()} vs {@link Chunk#text()}).
 */
public final class HeadingContextualizer {

    static final String TITLE_KEY = "title";
    private static final String PATH_SEPARATOR = " > ";

    public String indexText(Chunk chunk) {
        List<String> context = new ArrayList<>();
        if (chunk.metadata().get(TITLE_KEY) instanceof String title && !title.isBlank()
                && (chunk.headingPath().isEmpty() || !chunk.headingPath().get(0).equals(title.strip()))) {
            context.add(title.strip());
        }
        context.addAll(chunk.headingPath());
        return context.isEmpty() ? chunk.text() : String.join(PATH_SEPARATOR, context) + "\n\n" + chunk.text();
    }

    public EmbeddedChunk embedded(Chunk chunk, float[] embedding) {
        return new EmbeddedChunk(chunk, indexText(chunk), embedding);
    }
}
