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
import io.corpora.store.lucene.LuceneVectorStoreProvider;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * HNSW build time, query latency and recall@10 against exact search, as a function of numCandidates, through
 * the real store. Not a unit test: run by {@code bench.sh}, which runs it on every JDK present and prints ratios.
 *
 * <p>Vectors are embedding-like: unit-normalised points around 256 random centroids (not uniform noise, on
 * which HNSW recall is unrepresentative). Arguments: {@code [size] [dimension] [queries]}, default 20000 384 200.
 */
public final class HnswBenchmark {

    private static final Namespace NS = Namespace.of("bench");
    private static final int K = 10;
    /** CPU time of the calling thread: searches and the single-segment graph build run on it; robust to a loaded machine. */
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final int[] CANDIDATES = {10, 20, 50, 100, 200, 400};

    private HnswBenchmark() {}

    public static void main(String[] args) throws Exception {
        int size = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int dimension = args.length > 1 ? Integer.parseInt(args[1]) : 384;
        int queryCount = args.length > 2 ? Integer.parseInt(args[2]) : 200;
        Random random = new Random(42);
        float[][] centroids = new float[256][];
        for (int c = 0; c < centroids.length; c++) {
            centroids[c] = gaussian(random, dimension, 1.0f);
        }
        float[][] vectors = new float[size][];
        for (int i = 0; i < size; i++) {
            vectors[i] = around(centroids[random.nextInt(centroids.length)], random);
        }
        float[][] queries = new float[queryCount][];
        for (int q = 0; q < queryCount; q++) {
            queries[q] = around(centroids[random.nextInt(centroids.length)], random);
        }
        List<Set<Integer>> truth = groundTruth(vectors, queries);

        Path dir = Files.createTempDirectory("corpora-hnsw-bench");
        System.out.printf("result jdk=%s size=%d dim=%d queries=%d%n", Runtime.version(), size, dimension, queryCount);
        long start = System.nanoTime();
        long startCpu = THREADS.getCurrentThreadCpuTime();
        try (VectorStore store = open(dir, Map.of("ramBufferMb", "1024"))) {
            List<EmbeddedChunk> batch = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                batch.add(new EmbeddedChunk(new Chunk(id(i), id(i), 0, "v" + i, List.of(), Map.of()), vectors[i]));
            }
            store.upsert(NS, batch); // one flush: the HNSW graph is built once, no merges
        }
        System.out.printf("result build build_s=%.2f build_cpu_s=%.2f%n", (System.nanoTime() - start) / 1e9,
                (THREADS.getCurrentThreadCpuTime() - startCpu) / 1e9);

        for (int candidates : CANDIDATES) {
            try (VectorStore store = open(dir, Map.of("exactSearchThreshold", "0", "numCandidatesFactor", "1",
                    "minCandidates", Integer.toString(candidates)))) {
                measure(store, queries, truth, "hnsw_nc" + candidates);
            }
        }
        try (VectorStore store = open(dir, Map.of("exactSearchThreshold", Integer.toString(size)))) {
            measure(store, queries, truth, "exact");
        }
    }

    private static void measure(VectorStore store, float[][] queries, List<Set<Integer>> truth, String label) {
        for (int w = 0; w < Math.min(50, queries.length); w++) { // warm-up
            store.search(NS, SearchRequest.vector(queries[w], K, MetadataFilter.all(), null, null));
        }
        long[] nanos = new long[queries.length];
        long cpu = 0;
        int found = 0;
        for (int q = 0; q < queries.length; q++) {
            long t = System.nanoTime();
            long c = THREADS.getCurrentThreadCpuTime();
            List<ScoredChunk> hits = store.search(NS, SearchRequest.vector(queries[q], K, MetadataFilter.all(), null, null));
            cpu += THREADS.getCurrentThreadCpuTime() - c;
            nanos[q] = System.nanoTime() - t;
            for (ScoredChunk hit : hits) {
                found += truth.get(q).contains(Integer.parseInt(hit.chunk().id().substring(1))) ? 1 : 0;
            }
        }
        Arrays.sort(nanos);
        double mean = Arrays.stream(nanos).average().orElse(0) / 1e6;
        System.out.printf("result %s recall@10=%.3f cpu_ms=%.3f mean_ms=%.3f p50_ms=%.3f p99_ms=%.3f%n", label,
                found / (double) (queries.length * K), cpu / 1e6 / queries.length, mean, nanos[nanos.length / 2] / 1e6,
                nanos[(int) (nanos.length * 0.99)] / 1e6);
    }

    private static List<Set<Integer>> groundTruth(float[][] vectors, float[][] queries) {
        List<Set<Integer>> truth = new ArrayList<>();
        for (float[] query : queries) {
            Integer[] order = new Integer[vectors.length];
            double[] scores = new double[vectors.length];
            for (int i = 0; i < vectors.length; i++) {
                order[i] = i;
                scores[i] = VectorSimilarity.COSINE.score(query, vectors[i]);
            }
            Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
            truth.add(new HashSet<>(Arrays.asList(order).subList(0, K)));
        }
        return truth;
    }

    private static VectorStore open(Path dir, Map<String, String> options) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        return provider.create(PluginContext.of(dir, "bench"), PluginConfig.validate(provider.name(), provider.configOptions(), options));
    }

    private static String id(int i) {
        return String.format("v%06d", i);
    }

    private static float[] around(float[] centroid, Random random) {
        float[] noise = gaussian(random, centroid.length, 0.9f);
        for (int d = 0; d < noise.length; d++) {
            noise[d] += centroid[d];
        }
        return VectorMath.l2Normalize(noise);
    }

    private static float[] gaussian(Random random, int dimension, float sigma) {
        float[] v = new float[dimension];
        for (int d = 0; d < dimension; d++) {
            v[d] = (float) random.nextGaussian() * sigma;
        }
        return v;
    }
}
