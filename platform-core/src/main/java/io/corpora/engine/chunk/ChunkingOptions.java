package io.corpora.engine.chunk;

import io.corpora.spi.embed.TokenCounter;
import java.util.Optional;

/**
 * How documents are cut into chunks.
 *
 * @param chunkSize    the window in characters (default {@value #DEFAULT_CHUNK_SIZE})
 * @param overlap      characters carried across each seam (default {@value #DEFAULT_OVERLAP}); must be below chunkSize
 * @param separator    record mode for prose: cut only at this separator (e.g. {@code "\n"} for JSONL, {@code "---"}),
 *                     packing whole records; null for ordinary prose
 * @param tokenCounter the embedder's tokenizer, when it exposes one; null to size by characters only
 * @param maxTokens    with a token counter, no chunk exceeds this many model tokens (e.g. 510 for a 512-token model);
 *                     0 when there is no token limit
 */
public record ChunkingOptions(int chunkSize, int overlap, String separator, TokenCounter tokenCounter, int maxTokens) {

    public static final int DEFAULT_CHUNK_SIZE = 800;
    public static final int DEFAULT_OVERLAP = 100;

    public ChunkingOptions {
        if (chunkSize < 1) {
            throw new IllegalArgumentException("chunkSize must be >= 1 character, got " + chunkSize);
        }
        if (overlap < 0) {
            throw new IllegalArgumentException("overlap must be >= 0, got " + overlap);
        }
        if (overlap >= chunkSize) {
            throw new IllegalArgumentException("overlap (" + overlap + ") must be smaller than chunkSize (" + chunkSize
                    + "): every window must advance past the previous one");
        }
        if (separator != null && separator.isEmpty()) {
            throw new IllegalArgumentException("separator must not be empty; use null for prose without records");
        }
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens must be >= 0, got " + maxTokens);
        }
        if (maxTokens > 0 && tokenCounter == null) {
            throw new IllegalArgumentException("maxTokens " + maxTokens + " needs a token counter (the embedder's tokenizer)");
        }
    }

    public static ChunkingOptions defaults() {
        return new ChunkingOptions(DEFAULT_CHUNK_SIZE, DEFAULT_OVERLAP, null, null, 0);
    }

    public static ChunkingOptions of(int chunkSize, int overlap) {
        return new ChunkingOptions(chunkSize, overlap, null, null, 0);
    }

    public ChunkingOptions withSeparator(String newSeparator) {
        return new ChunkingOptions(chunkSize, overlap, newSeparator, tokenCounter, maxTokens);
    }

    /** Sizes chunks so none exceeds {@code limit} tokens of the given tokenizer (in addition to the character window). */
    public ChunkingOptions withTokenLimit(TokenCounter counter, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("token limit must be >= 1, got " + limit);
        }
        return new ChunkingOptions(chunkSize, overlap, separator, java.util.Objects.requireNonNull(counter, "counter"), limit);
    }

    public Optional<String> separatorOptional() {
        return Optional.ofNullable(separator);
    }

    /** Whether the text fits one chunk: within the character window and, when token-aware, the token limit. */
    boolean fits(String text) {
        return text.length() <= chunkSize && fitsTokens(text);
    }

    boolean fitsTokens(String text) {
        return maxTokens == 0 || tokenCounter.countTokens(text) <= maxTokens;
    }
}
