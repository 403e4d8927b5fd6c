package io.corpora.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class QueryEmbeddingCacheTest {

    /** A deterministic model that records what it was asked: its vector is a function of the text and model name. */
    private static final class CountingModel implements Embedder {
        private final EmbedderFingerprint fingerprint;
        final List<String> queries = new ArrayList<>();
        final List<String> documents = new ArrayList<>();

        CountingModel(String model) {
            this.fingerprint = new EmbedderFingerprint("counting", model, 2, false, "test");
        }

        @Override
        public EmbedderFingerprint fingerprint() {
            return fingerprint;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            documents.addAll(texts);
            return texts.stream().map(this::vector).toList();
        }

        @Override
        public float[] embedQuery(String query) {
            queries.add(query);
            return vector(query);
        }

        private float[] vector(String text) {
            return new float[] {text.length(), fingerprint.model().hashCode() % 97};
        }
    }

    @Test
    void aRepeatedQuerySkipsTheModelAndGetsTheSameVector() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(10);
        CountingModel model = new CountingModel("m1");
        Embedder acme = cache.wrap("acme", model);
        float[] first = acme.embedQuery("what is rag?");
        float[] second = acme.embedQuery("what is rag?");
        assertArrayEquals(first, second);
        assertEquals(List.of("what is rag?"), model.queries, "the model ran once");
        assertEquals(1, cache.hits());
        assertEquals(1, cache.misses());
        assertEquals(model.fingerprint(), acme.fingerprint(), "a decorator never changes the vectors' identity");
    }

    @Test
    void aCallerMutatingItsVectorCannotPoisonTheCache() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(10);
        Embedder acme = cache.wrap("acme", new CountingModel("m1"));
        float[] mine = acme.embedQuery("q");
        float[] expected = mine.clone();
        mine[0] = 42;
        assertArrayEquals(expected, acme.embedQuery("q"));
        acme.embedQuery("q")[1] = 7;
        assertArrayEquals(expected, acme.embedQuery("q"));
    }

    @Test
    void neverCrossesTenantsNorFingerprints() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(10);
        CountingModel m1 = new CountingModel("m1");
        CountingModel m2 = new CountingModel("m2-other");
        cache.wrap("acme", m1).embedQuery("q");
        cache.wrap("globex", m1).embedQuery("q");
        assertEquals(2, m1.queries.size(), "another tenant's identical query is embedded for it, not served from acme's entry");
        float[] other = cache.wrap("acme", m2).embedQuery("q");
        assertEquals(1, m2.queries.size(), "another fingerprint never gets m1's vector");
        assertArrayEquals(m2.vector("q"), other);
        assertEquals(0, cache.hits());
        assertEquals(3, cache.size());
    }

    @Test
    void boundedLeastRecentlyUsedFirst() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(2);
        CountingModel model = new CountingModel("m1");
        Embedder acme = cache.wrap("acme", model);
        acme.embedQuery("a");
        acme.embedQuery("b");
        acme.embedQuery("a"); // a is now the most recent
        acme.embedQuery("c"); // evicts b
        assertEquals(2, cache.size());
        assertEquals(1, cache.evictions());
        model.queries.clear();
        acme.embedQuery("a");
        acme.embedQuery("b");
        assertEquals(List.of("b"), model.queries, "a stayed, b was evicted");
    }

    @Test
    void documentsAreNeverCached() {
        QueryEmbeddingCache cache = new QueryEmbeddingCache(10);
        CountingModel model = new CountingModel("m1");
        Embedder acme = cache.wrap("acme", model);
        acme.embedDocuments(List.of("d"));
        acme.embedDocuments(List.of("d"));
        assertEquals(List.of("d", "d"), model.documents);
        assertEquals(0, cache.size());
    }

    @Test
    void zeroDisablesItAndNegativeIsRefused() {
        CountingModel model = new CountingModel("m1");
        assertSame(model, new QueryEmbeddingCache(0).wrap("acme", model));
        assertThrows(IllegalArgumentException.class, () -> new QueryEmbeddingCache(-1));
    }
}
