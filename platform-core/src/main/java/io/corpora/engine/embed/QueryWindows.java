package io.corpora.engine.embed;

import io.corpora.spi.InvalidInputException;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Embeds a query of any length below the API limit. A query that fits the embedder's query window is embedded as
 * is. A longer one is cut at whitespace into consecutive windows that each fit, the windows are embedded, and their
 * vectors are mean-pooled (then L2-normalised when the model's vectors are): every part of a pasted paragraph steers
 * the search, where keeping the head would drop the rest and peers silently truncate. At most {@value #MAX_WINDOWS}
 * windows are embedded; the tail beyond them is dropped and flagged as {@code truncated} (with bge-small's 500-token
 * query window that is far beyond the 4,096-character API limit).
 *
 * <p>The window comes from {@link Embedder#maxQueryTokens()}, or from {@link Embedder#maxInputTokens()} less a
 * margin for special tokens and an instruction for an embedder built before SPI 1.3. An embedder without a tokenizer is tried
 * whole; when it refuses the input as too long ({@link InvalidInputException}) the query is halved at whitespace
 * until every part embeds.
 */
public final class QueryWindows {

    public static final int MAX_WINDOWS = 16;
    /** [CLS]/[SEP] plus a typical retrieval instruction, for embedders that do not report their query window. */
    static final int LEGACY_MARGIN = 2 + 24;

    /**
     * A query's vector and how it was made.
     *
     * @param windows   how many windows were embedded (1 for a query that fits)
     * @param truncated whether a tail beyond {@value #MAX_WINDOWS} windows was dropped
     */
    public record Embedded(float[] vector, int windows, boolean truncated) {}

    private QueryWindows() {}

    public static Embedded embed(Embedder embedder, String query) {
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(query, "query");
        Optional<TokenCounter> counter = embedder.tokenCounter();
        int window = window(embedder);
        if (counter.isEmpty() || window <= 0) {
            return bisecting(embedder, query);
        }
        if (counter.get().countTokens(query) <= window) {
            return new Embedded(embedder.embedQuery(query), 1, false);
        }
        List<String> windows = split(query, counter.get(), window);
        boolean truncated = windows.size() > MAX_WINDOWS;
        List<String> kept = truncated ? windows.subList(0, MAX_WINDOWS) : windows;
        return new Embedded(pool(embedder, embedder.embedQueries(kept)), kept.size(), truncated);
    }

    /** Whether the query is known to fit one query call (false when the embedder cannot tell). */
    public static boolean fits(Embedder embedder, String query) {
        int window = window(embedder);
        return window > 0 && embedder.tokenCounter().map(c -> c.countTokens(query) <= window).orElse(false);
    }

    /** Text tokens one query call may hold; 0 when the embedder tells nothing. */
    static int window(Embedder embedder) {
        if (embedder.maxQueryTokens() > 0) {
            return embedder.maxQueryTokens();
        }
        return embedder.maxInputTokens() > LEGACY_MARGIN + 8 ? embedder.maxInputTokens() - LEGACY_MARGIN : 0;
    }

    /**
     * Greedy whitespace windows of at most {@code window} tokens each. Counting a window as the sum of its words'
     * tokens is exact for WordPiece (words tokenize independently) and errs long for others, so a window never
     * overflows; a single word longer than the window is cut by characters.
     */
    static List<String> split(String query, TokenCounter counter, int window) {
        List<String> windows = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        int currentTokens = 0;
        for (String word : query.strip().split("\\s+")) {
            int tokens = counter.countTokens(word);
            if (tokens > window) {
                if (!current.isEmpty()) {
                    windows.add(current.toString());
                    current.setLength(0);
                    currentTokens = 0;
                }
                windows.addAll(cutWord(word, counter, window));
                continue;
            }
            if (currentTokens + tokens > window && !current.isEmpty()) {
                windows.add(current.toString());
                current.setLength(0);
                currentTokens = 0;
            }
            if (!current.isEmpty()) {
                current.append(' ');
            }
            current.append(word);
            currentTokens += tokens;
        }
        if (!current.isEmpty()) {
            windows.add(current.toString());
        }
        return windows;
    }

    private static List<String> cutWord(String word, TokenCounter counter, int window) {
        List<String> parts = new ArrayList<>();
        int start = 0;
        while (start < word.length()) {
            int end = word.length();
            while (end - start > 1 && counter.countTokens(word.substring(start, end)) > window) {
                end = start + (end - start) / 2;
            }
            parts.add(word.substring(start, end));
            start = end;
        }
        return parts;
    }

    private static Embedded bisecting(Embedder embedder, String query) {
        List<String> parts = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        boolean truncated = bisect(embedder, query, parts, vectors);
        if (vectors.size() == 1) {
            return new Embedded(vectors.get(0), 1, truncated);
        }
        return new Embedded(pool(embedder, vectors), vectors.size(), truncated);
    }

    /** Embeds {@code text}, halving it while the embedder refuses it as too long; returns whether a part was dropped. */
    private static boolean bisect(Embedder embedder, String text, List<String> parts, List<float[]> vectors) {
        if (parts.size() >= MAX_WINDOWS) {
            return true;
        }
        try {
            vectors.add(embedder.embedQuery(text));
            parts.add(text);
            return false;
        } catch (InvalidInputException tooLong) {
            int cut = halfway(text);
            if (cut <= 0 || cut >= text.length()) {
                throw tooLong;
            }
            boolean dropped = bisect(embedder, text.substring(0, cut).strip(), parts, vectors);
            return bisect(embedder, text.substring(cut).strip(), parts, vectors) || dropped;
        }
    }

    private static int halfway(String text) {
        int middle = text.length() / 2;
        int space = text.lastIndexOf(' ', middle);
        return space > 0 ? space : middle;
    }

    /** The mean of the window vectors, L2-normalised when the model's vectors are. */
    static float[] pool(Embedder embedder, List<float[]> vectors) {
        float[] mean = new float[vectors.get(0).length];
        for (float[] v : vectors) {
            for (int i = 0; i < mean.length; i++) {
                mean[i] += v[i] / vectors.size();
            }
        }
        if (embedder.fingerprint().normalized()) {
            double norm = 0;
            for (float x : mean) {
                norm += (double) x * x;
            }
            norm = Math.sqrt(norm);
            if (norm > 0) {
                for (int i = 0; i < mean.length; i++) {
                    mean[i] = (float) (mean[i] / norm);
                }
            }
        }
        return mean;
    }
}
