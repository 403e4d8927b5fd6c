package io.corpora.testkit;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.VectorMath;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The test kit's deterministic embedder, for tests that need an embedder but not a model. Two ways to make vectors:
 * <ul>
 *   <li>{@linkplain #hashedWords hashed words} — a bag of words hashed into the dimensions (lower-cased, split on
 *       anything but ASCII letters and digits), L2-normalised, so texts sharing words are near. A {@linkplain Builder#salt
 *       salt} changes the hashing: two salts are two incomparable embedders (two fingerprints) of one width;</li>
 *   <li>{@linkplain #table a lookup table} — each text's vector given exactly, so expected neighbours are known;
 *       a text not in the table is an {@link IllegalArgumentException} (the test forgot it).</li>
 * </ul>
 * It counts what it embeds, records the document texts, and can run a hook before each document batch (to interleave
 * work with an embedding run). Hashed-words embedders pass {@link EmbedderContract}; an optional
 * {@linkplain Builder#maxInputTokens token limit} (whitespace-separated words) refuses longer input as the SPI asks.
 */
public final class TestEmbedder implements Embedder {

    private final EmbedderFingerprint fingerprint;
    private final String salt;
    private final Map<String, float[]> table;
    private final int maxInputTokens;
    private final AtomicInteger documentsEmbedded = new AtomicInteger();
    private final AtomicInteger queriesEmbedded = new AtomicInteger();
    private final List<String> embeddedDocuments = Collections.synchronizedList(new ArrayList<>());
    private volatile Consumer<List<String>> beforeDocumentBatch = texts -> {};

    private TestEmbedder(Builder builder) {
        this.fingerprint = new EmbedderFingerprint(builder.provider, builder.model, builder.dimension, builder.table == null, builder.revision);
        this.salt = builder.salt;
        this.table = builder.table == null ? null : Map.copyOf(builder.table);
        this.maxInputTokens = builder.maxInputTokens;
    }

    /** Hashed bag-of-words vectors of {@code dimension} components; fingerprint {@code test/hashed-words}. */
    public static Builder hashedWords(int dimension) {
        return new Builder(dimension, null);
    }

    /** Vectors from a lookup table ({@link Builder#put}); raw (not normalised), fingerprint {@code table/<model>}. */
    public static Builder table(String model, int dimension) {
        return new Builder(dimension, new HashMap<>()).provider("table").model(model).revision("test");
    }

    /** A hashed-words embedder with default settings. */
    public static TestEmbedder ofDimension(int dimension) {
        return hashedWords(dimension).build();
    }

    /** How {@link TestEmbedder}s are configured. */
    public static final class Builder {
        private final int dimension;
        private final Map<String, float[]> table;
        private String provider = "test";
        private String model = "hashed-words";
        private String revision = "1";
        private String salt = "";
        private int maxInputTokens;

        private Builder(int dimension, Map<String, float[]> table) {
            this.dimension = dimension;
            this.table = table;
        }

        public Builder provider(String provider) {
            this.provider = provider;
            return this;
        }

        public Builder model(String model) {
            this.model = model;
            return this;
        }

        public Builder revision(String revision) {
            this.revision = revision;
            return this;
        }

        /** Salts the word hashing (hashed words only); the model name records it, so the fingerprint differs too. */
        public Builder salt(String salt) {
            if (table != null) {
                throw new IllegalStateException("a table embedder has no hashing to salt");
            }
            this.salt = Objects.requireNonNull(salt, "salt");
            this.model = "salted-words-" + salt;
            return this;
        }

        /** Refuses input of more than {@code tokens} whitespace-separated words with an {@link InvalidInputException}. */
        public Builder maxInputTokens(int tokens) {
            this.maxInputTokens = tokens;
            return this;
        }

        /** The vector of {@code text} (table embedders only); its width must be the dimension. */
        public Builder put(String text, float... vector) {
            if (table == null) {
                throw new IllegalStateException("only a table embedder takes explicit vectors");
            }
            if (vector.length != dimension) {
                throw new IllegalArgumentException("vector of " + vector.length + " for a " + dimension + "-dimensional table");
            }
            table.put(text, vector.clone());
            return this;
        }

        public TestEmbedder build() {
            return new TestEmbedder(this);
        }
    }

    /** Runs {@code hook} with each document batch before embedding it. */
    public TestEmbedder beforeDocumentBatch(Consumer<List<String>> hook) {
        this.beforeDocumentBatch = Objects.requireNonNull(hook, "hook");
        return this;
    }

    /** Document texts embedded so far (one per text, not per call). */
    public int documentsEmbedded() {
        return documentsEmbedded.get();
    }

    /** Queries embedded so far. */
    public int queriesEmbedded() {
        return queriesEmbedded.get();
    }

    /** Every document text embedded so far, in order. */
    public List<String> embeddedDocuments() {
        synchronized (embeddedDocuments) {
            return List.copyOf(embeddedDocuments);
        }
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return fingerprint;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        texts.forEach(this::requireWithinLimit);
        beforeDocumentBatch.accept(texts);
        List<float[]> vectors = texts.stream().map(this::vector).toList();
        documentsEmbedded.addAndGet(texts.size());
        embeddedDocuments.addAll(texts);
        return vectors;
    }

    @Override
    public float[] embedQuery(String query) {
        requireWithinLimit(query);
        queriesEmbedded.incrementAndGet();
        return vector(query);
    }

    @Override
    public int maxInputTokens() {
        return maxInputTokens;
    }

    @Override
    public Optional<TokenCounter> tokenCounter() {
        return maxInputTokens > 0 ? Optional.of(TestEmbedder::words) : Optional.empty();
    }

    /** The vector of {@code text}, without counting it. */
    public float[] vector(String text) {
        Objects.requireNonNull(text, "text");
        if (table != null) {
            float[] v = table.get(text);
            if (v == null) {
                throw new IllegalArgumentException("no test vector for '" + text + "'");
            }
            return v.clone();
        }
        float[] v = new float[fingerprint.dimension()];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!word.isEmpty()) {
                v[Math.floorMod((salt + word).hashCode(), v.length)] += 1;
            }
        }
        v[0] += 0.01f; // never all zeros
        return VectorMath.l2Normalize(v);
    }

    private void requireWithinLimit(String text) {
        if (maxInputTokens > 0 && words(text) > maxInputTokens) {
            throw new InvalidInputException("input of " + words(text) + " words is over the limit of " + maxInputTokens
                    + " of the test embedder " + fingerprint.id());
        }
    }

    private static int words(String text) {
        String trimmed = text.strip();
        return trimmed.isEmpty() ? 0 : trimmed.split("\\s+").length;
    }
}
