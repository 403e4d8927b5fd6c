package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.TestVectors;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 50,000 vectors, a filter matching 0.5 % of them: recall@10 against exact search must be at least 0.95, both with
 * the default settings (the selective filter triggers the exact fallback) and with the fallback disabled (Lucene's
 * filtered HNSW alone). Vectors are clustered, like embeddings, rather than uniform noise.
 */
@Tag("recall")
class FilteredRecallTest {

    private static final int SIZE = 50_000;
    private static final int DIMENSION = 32;
    private static final int GROUPS = 200; // one group = 0.5 % of the corpus
    private static final int QUERIES = 40;
    private static final int K = 10;
    private static final Namespace NAMESPACE = Namespace.of("recall");

    @TempDir
    Path data;

    @Test
    void aFilterMatchingHalfAPercentKeepsRecallAtTenAboveNinetyFivePercent() {
        Random random = new Random(7);
        float[][] centroids = new float[64][];
        TestVectors noise = new TestVectors(8, DIMENSION);
        for (int c = 0; c < centroids.length; c++) {
            centroids[c] = noise.next();
        }
        Map<String, float[]> group7 = new LinkedHashMap<>();
        // A narrower build beam (default 100) keeps the 50k graph build cheap; the filtered path must not depend on it.
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("hnsw.efConstruction", "32"))) {
            List<EmbeddedChunk> batch = new ArrayList<>();
            for (int i = 0; i < SIZE; i++) {
                float[] v = clustered(centroids[random.nextInt(centroids.length)], random);
                int group = i % GROUPS;
                Chunk chunk = new Chunk(String.format("c%05d", i), "d" + i, 0, "chunk " + i, List.of(), Map.of("group", "g" + group));
                if (group == 7) {
                    group7.put(chunk.id(), v);
                }
                batch.add(new EmbeddedChunk(chunk, v));
                if (batch.size() == SIZE) { // one upsert: one flushed segment, no graph-rebuilding merges
                    store.upsert(NAMESPACE, batch);
                    batch.clear();
                }
            }
        }
        assertEquals(SIZE / GROUPS, group7.size());
        List<float[]> queries = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            queries.add(clustered(centroids[random.nextInt(centroids.length)], random));
        }
        MetadataFilter filter = MetadataFilter.eq("group", "g7");

        double withFallback = recall(Map.of(), filter, group7, queries, VectorSearch.Strategy.EXACT);
        double hnswOnly = recall(Map.of("exactSearchThreshold", "0"), filter, group7, queries, VectorSearch.Strategy.HNSW);
        System.out.printf("filtered recall@%d over %d queries, %d of %d vectors pass: default %.3f, HNSW only %.3f%n",
                K, QUERIES, group7.size(), SIZE, withFallback, hnswOnly);
        assertTrue(withFallback >= 0.95, "recall@10 with the exact fallback: " + withFallback);
        assertTrue(hnswOnly >= 0.95, "recall@10 of filtered HNSW: " + hnswOnly);
    }

    private double recall(Map<String, String> options, MetadataFilter filter, Map<String, float[]> allowed, List<float[]> queries,
                          VectorSearch.Strategy expected) {
        try (LuceneVectorStore store = StoreFixtures.open(data, options)) {
            int found = 0;
            for (float[] query : queries) {
                Set<String> exact = new HashSet<>();
                TestVectors.exactRanking(VectorSimilarity.COSINE, query, allowed).subList(0, K).forEach(e -> exact.add(e.id()));
                VectorSearch.Outcome outcome = store.vectorSearch(NAMESPACE, SearchRequest.vector(query, K, filter, null, null));
                assertEquals(expected, outcome.strategy());
                assertEquals(K, outcome.hits().size());
                for (ScoredChunk hit : outcome.hits()) {
                    assertTrue(hit.chunk().metadata().get("group").equals("g7"), "a hit outside the filter");
                    found += exact.contains(hit.chunk().id()) ? 1 : 0;
                }
            }
            return found / (double) (queries.size() * K);
        }
    }

    private static float[] clustered(float[] centroid, Random random) {
        float[] v = new float[centroid.length];
        for (int d = 0; d < v.length; d++) {
            v[d] = centroid[d] + (float) random.nextGaussian() * 0.35f;
        }
        return v;
    }
}
