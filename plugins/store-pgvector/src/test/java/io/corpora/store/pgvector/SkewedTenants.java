package io.corpora.store.pgvector;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * 20 000 random vectors in 20 tenants of very different sizes (12 000 down to 30) sharing one table: the
 * situation in which a post-filtered HNSW search starves a small tenant. Recall is measured against an exact
 * search computed here in Java.
 */
final class SkewedTenants {

    static final int[] SIZES = {12000, 3000, 1500, 800, 500, 400, 300, 250, 200, 180, 160, 140, 120, 100, 90, 80, 60, 50, 40, 30};

    final int dimension;
    final List<Namespace> tenants = new ArrayList<>();
    final Map<Namespace, Map<String, float[]>> vectors = new LinkedHashMap<>();

    SkewedTenants(String prefix, int dimension, long seed) {
        this.dimension = dimension;
        Random random = new Random(seed);
        for (int t = 0; t < SIZES.length; t++) {
            Namespace ns = Namespace.of(prefix + "-" + t);
            tenants.add(ns);
            Map<String, float[]> byId = new LinkedHashMap<>();
            for (int i = 0; i < SIZES[t]; i++) {
                byId.put(String.format("c%05d", i), randomVector(random));
            }
            vectors.put(ns, byId);
        }
    }

    float[] randomVector(Random random) {
        float[] v = new float[dimension];
        for (int i = 0; i < dimension; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }

    Namespace smallest() {
        return tenants.get(tenants.size() - 1);
    }

    /** Loads the tenants interleaved (as real ingest would), largest first within each round. */
    void load(VectorStore store) {
        int batchSize = 2000;
        List<Iterator> cursors = new ArrayList<>();
        for (Namespace ns : tenants) {
            cursors.add(new Iterator(ns, new ArrayList<>(vectors.get(ns).entrySet())));
        }
        boolean more = true;
        while (more) {
            more = false;
            for (Iterator cursor : cursors) {
                List<EmbeddedChunk> batch = new ArrayList<>();
                while (cursor.next < cursor.entries.size() && batch.size() < batchSize * cursor.entries.size() / SIZES[0] + 1) {
                    Map.Entry<String, float[]> e = cursor.entries.get(cursor.next++);
                    batch.add(new EmbeddedChunk(new Chunk(e.getKey(), "doc-" + e.getKey(), 0, "chunk " + e.getKey(), List.of(), Map.of()),
                            e.getValue()));
                }
                if (!batch.isEmpty()) {
                    store.upsert(cursor.namespace, batch);
                }
                more |= cursor.next < cursor.entries.size();
            }
        }
    }

    private static final class Iterator {
        final Namespace namespace;
        final List<Map.Entry<String, float[]>> entries;
        int next;

        Iterator(Namespace namespace, List<Map.Entry<String, float[]>> entries) {
            this.namespace = namespace;
            this.entries = entries;
        }
    }

    List<String> exactTopK(VectorSimilarity metric, Namespace ns, float[] query, int k) {
        List<Map.Entry<String, Double>> scored = new ArrayList<>();
        vectors.get(ns).forEach((id, v) -> scored.add(Map.entry(id, metric.score(query, v))));
        scored.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        return scored.subList(0, Math.min(k, scored.size())).stream().map(Map.Entry::getKey).toList();
    }

    /** Mean recall@k over the queries, of the store's search in {@code ns} against the exact top k. */
    double recall(VectorStore store, VectorSimilarity metric, Namespace ns, List<float[]> queries, int k) {
        return measure(store, metric, ns, queries, k).recall();
    }

    /** Mean recall@k and mean store latency (the oracle's time excluded). */
    record Measured(double recall, double meanMillis) {}

    Measured measure(VectorStore store, VectorSimilarity metric, Namespace ns, List<float[]> queries, int k) {
        double sum = 0;
        long searchNanos = 0;
        for (float[] query : queries) {
            Set<String> exact = new HashSet<>(exactTopK(metric, ns, query, k));
            long start = System.nanoTime();
            List<ScoredChunk> hits = store.search(ns, SearchRequest.vector(query, k, MetadataFilter.all(), null, null));
            searchNanos += System.nanoTime() - start;
            int found = 0;
            for (ScoredChunk hit : hits) {
                if (exact.contains(hit.chunk().id())) {
                    found++;
                }
            }
            sum += (double) found / exact.size();
        }
        return new Measured(sum / queries.size(), searchNanos / 1e6 / queries.size());
    }

    List<float[]> queries(int count, long seed) {
        Random random = new Random(seed);
        List<float[]> queries = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            queries.add(randomVector(random));
        }
        return queries;
    }
}
