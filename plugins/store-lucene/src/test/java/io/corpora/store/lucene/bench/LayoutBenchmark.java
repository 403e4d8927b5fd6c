package io.corpora.store.lucene.bench;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorMath;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.TestVectors;
import io.corpora.store.lucene.LuceneVectorStoreProvider;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * One index per namespace versus one shared index with a tenant field, through the same store code: tenants of
 * very different sizes, then build CPU, query CPU and recall@10 for a large, a middle and a tiny tenant, and the
 * cost of deleting a tenant. Run: see the README ("Index layout").
 */
public final class LayoutBenchmark {

    private static final int[] SIZES = {20_000, 8_000, 4_000, 2_000, 1_000, 500, 200, 100, 50, 20, 10, 5};
    private static final int DIMENSION = 64;
    private static final int QUERIES = 50;
    private static final int K = 10;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private LayoutBenchmark() {}

    public static void main(String[] args) throws Exception {
        Random random = new Random(3);
        TestVectors centroidSource = new TestVectors(4, DIMENSION);
        float[][] centroids = new float[128][];
        for (int c = 0; c < centroids.length; c++) {
            centroids[c] = centroidSource.next();
        }
        List<Map<String, float[]>> tenants = new ArrayList<>();
        for (int t = 0; t < SIZES.length; t++) {
            Map<String, float[]> vectors = new LinkedHashMap<>();
            for (int i = 0; i < SIZES[t]; i++) {
                vectors.put(String.format("t%02d-%05d", t, i), around(centroids[random.nextInt(centroids.length)], random));
            }
            tenants.add(vectors);
        }
        List<float[]> queries = new ArrayList<>();
        for (int q = 0; q < QUERIES; q++) {
            queries.add(around(centroids[random.nextInt(centroids.length)], random));
        }
        // An untimed pass first, so JIT warm-up does not favour whichever layout is measured later.
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        measure("warm-up", false, tenants, queries, "5000");
        measure("warm-up", true, tenants, queries, "0");
        System.setOut(out);
        for (String threshold : List.of("5000", "0")) {
            System.out.println("== exactSearchThreshold=" + threshold);
            measure("per-namespace", true, tenants, queries, threshold);
            measure("shared+filter", false, tenants, queries, threshold);
        }
    }

    private static void measure(String layout, boolean perNamespace, List<Map<String, float[]>> tenants, List<float[]> queries,
                                String threshold) throws Exception {
        Path dir = Files.createTempDirectory("corpora-layout");
        try (VectorStore store = open(dir, threshold)) {
            long cpu = THREADS.getCurrentThreadCpuTime();
            long wall = System.nanoTime();
            if (perNamespace) {
                for (int t = 0; t < tenants.size(); t++) {
                    store.upsert(Namespace.of("t" + t), chunks(tenants.get(t), t));
                }
            } else {
                List<EmbeddedChunk> all = new ArrayList<>();
                for (int t = 0; t < tenants.size(); t++) {
                    all.addAll(chunks(tenants.get(t), t));
                }
                store.upsert(Namespace.of("shared"), all);
            }
            System.out.printf("result %s build_cpu_s=%.2f build_wall_s=%.2f%n", layout, (THREADS.getCurrentThreadCpuTime() - cpu) / 1e9,
                    (System.nanoTime() - wall) / 1e9);
            for (int t : new int[] {0, 2, 8}) {
                Namespace ns = perNamespace ? Namespace.of("t" + t) : Namespace.of("shared");
                MetadataFilter filter = perNamespace ? MetadataFilter.all() : MetadataFilter.eq("tenant", "t" + t);
                for (int w = 0; w < 20; w++) {
                    store.search(ns, SearchRequest.vector(queries.get(w), K, filter, null, null));
                }
                long queryCpu = 0;
                int found = 0;
                for (float[] query : queries) {
                    Set<String> exact = new HashSet<>();
                    TestVectors.exactRanking(VectorSimilarity.COSINE, query, tenants.get(t)).subList(0, Math.min(K, SIZES[t]))
                            .forEach(e -> exact.add(e.id()));
                    long c = THREADS.getCurrentThreadCpuTime();
                    List<ScoredChunk> hits = store.search(ns, SearchRequest.vector(query, K, filter, null, null));
                    queryCpu += THREADS.getCurrentThreadCpuTime() - c;
                    for (ScoredChunk hit : hits) {
                        found += exact.contains(hit.chunk().id()) ? 1 : 0;
                    }
                }
                System.out.printf("result %s tenant_size=%d query_cpu_ms=%.3f recall@10=%.3f%n", layout, SIZES[t],
                        queryCpu / 1e6 / queries.size(), found / (double) (queries.size() * Math.min(K, SIZES[t])));
            }
            long wallDelete = System.nanoTime();
            if (perNamespace) {
                store.deleteNamespace(Namespace.of("t2"));
            } else {
                store.deleteWhere(Namespace.of("shared"), MetadataFilter.eq("tenant", "t2"));
            }
            System.out.printf("result %s delete_tenant_of_%d_ms=%.1f%n", layout, SIZES[2], (System.nanoTime() - wallDelete) / 1e6);
        }
    }

    private static List<EmbeddedChunk> chunks(Map<String, float[]> vectors, int tenant) {
        List<EmbeddedChunk> chunks = new ArrayList<>(vectors.size());
        vectors.forEach((id, v) -> chunks.add(new EmbeddedChunk(new Chunk(id, id, 0, "t", List.of(), Map.of("tenant", "t" + tenant)), v)));
        return chunks;
    }

    private static VectorStore open(Path dir, String threshold) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        return provider.create(PluginContext.of(dir, "layout"), PluginConfig.validate(provider.name(), provider.configOptions(),
                Map.of("ramBufferMb", "512", "exactSearchThreshold", threshold)));
    }

    private static float[] around(float[] centroid, Random random) {
        float[] v = centroid.clone();
        for (int d = 0; d < v.length; d++) {
            v[d] += (float) random.nextGaussian() * 0.3f;
        }
        return VectorMath.l2Normalize(v);
    }
}
