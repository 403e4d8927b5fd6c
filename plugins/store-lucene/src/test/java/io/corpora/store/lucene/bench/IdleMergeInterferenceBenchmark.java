package io.corpora.store.lucene.bench;

import com.sun.management.OperatingSystemMXBean;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.store.lucene.LuceneVectorStore;
import io.corpora.store.lucene.LuceneVectorStoreProvider;
import io.corpora.testkit.TestFiles;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;

/**
 * What the idle merge ({@code merge.idleSegments}) costs the tenants still being served while it runs: a small namespace
 * searched by one caller (vector, top 10) for a while with idle merges off, then from the moment a store opens
 * {@code namespaces} large ones as an ingest's tiered merges left them until every one of them is merged into one
 * segment and committed. Prints the small namespace's latency percentiles in both phases, their ratio, how long the
 * merges took and the process's CPU. Vectors are synthetic (384-d, around 64 random centres), texts short: the merge's
 * HNSW rebuild is the cost measured. The layout is built once into {@code dataDir} (idle merges off); each phase runs on
 * a copy of it. Not a unit test. Arguments: {@code dataDir [namespaces [chunks per namespace [seconds alone]]]},
 * default 4 × 25,000 chunks, 20 s. Give it the server's JVM flags on JDK 21 and later (see {@link SegmentSearchBenchmark}).
 *
 * <pre>java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dorg.apache.lucene.vectorization.upperJavaFeatureVersion=25 \
 *     -cp "plugins/store-lucene/target/test-classes:plugins/store-lucene/target/classes:$(cat plugins/store-lucene/target/bench.classpath)" \
 *     io.corpora.store.lucene.bench.IdleMergeInterferenceBenchmark /tmp/idle-merge-layout 4 25000</pre>
 */
public final class IdleMergeInterferenceBenchmark {

    private static final int DIMENSION = 384;
    private static final int CENTRES = 64;
    private static final int SMALL_CHUNKS = 2_000;
    private static final int BATCH = 250;
    private static final int WARMUP_QUERIES = 3_000;
    private static final long SETTLE_LIMIT_NANOS = 20L * 60 * 1_000_000_000;
    private static final Namespace SMALL = Namespace.of("small");
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private IdleMergeInterferenceBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path layout = Path.of(args[0]);
        int namespaces = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int chunks = args.length > 2 ? Integer.parseInt(args[2]) : 25_000;
        long aloneNanos = (args.length > 3 ? Long.parseLong(args[3]) : 20) * 1_000_000_000L;
        List<Namespace> large = new ArrayList<>();
        for (int n = 0; n < namespaces; n++) {
            large.add(Namespace.of("large-" + n));
        }
        Random random = new Random(42);
        float[][] centres = new float[CENTRES][];
        for (int c = 0; c < CENTRES; c++) {
            centres[c] = unit(gaussian(random, 1.0));
        }
        if (!Files.exists(layout.resolve("built"))) {
            build(layout, large, chunks, centres, random);
        }
        for (Namespace namespace : large) {
            int segments = segments(layout, namespace);
            System.out.printf(Locale.ROOT, "%s: %d segments as written%n", namespace, segments);
            if (segments < 2) {
                throw new IllegalArgumentException(namespace + " holds one segment: nothing to merge; build a layout with more chunks");
            }
        }
        float[][] queries = new float[1_000][];
        for (int q = 0; q < queries.length; q++) {
            queries[q] = near(centres[random.nextInt(CENTRES)], random);
        }

        Phase alone = phase(layout, Map.of("merge.idleSegments", "0"), large, queries, aloneNanos, false);
        Phase during = phase(layout, Map.of("merge.idleAfter", "1s"), large, queries, SETTLE_LIMIT_NANOS, true);
        System.out.printf(Locale.ROOT, "%-40s %8s %8s %8s %8s %10s %8s%n", "small namespace, vector top 10, 1 caller", "queries", "p50 ms",
                "p99 ms", "p99.9 ms", "wall s", "cores");
        alone.print("alone (idle merges off)");
        during.print("while the large ones merge");
        System.out.printf(Locale.ROOT, "during / alone: p50 %.2f, p99 %.2f, p99.9 %.2f; %d namespaces of %,d chunks merged into one segment in %.1f s%n",
                during.percentile(0.50) / alone.percentile(0.50), during.percentile(0.99) / alone.percentile(0.99),
                during.percentile(0.999) / alone.percentile(0.999), namespaces, chunks, during.wallNanos / 1e9);
    }

    private static void build(Path layout, List<Namespace> large, int chunks, float[][] centres, Random random) throws IOException {
        long start = System.nanoTime();
        try (VectorStore store = open(layout, Map.of("merge.idleSegments", "0"))) {
            write(store, SMALL, SMALL_CHUNKS, centres, random);
            for (Namespace namespace : large) {
                write(store, namespace, chunks, centres, random);
            }
        }
        Files.writeString(layout.resolve("built"), "");
        System.out.printf(Locale.ROOT, "built %d namespaces of %,d chunks and one of %,d in %.1f s%n", large.size(), chunks, SMALL_CHUNKS,
                (System.nanoTime() - start) / 1e9);
    }

    private static void write(VectorStore store, Namespace namespace, int chunks, float[][] centres, Random random) {
        List<EmbeddedChunk> batch = new ArrayList<>(BATCH);
        for (int i = 0; i < chunks; i++) {
            String id = namespace.tenant() + "-" + i;
            batch.add(new EmbeddedChunk(new Chunk(id, "doc-" + i, 0, "passage " + i + " of " + namespace.tenant(), List.of(), Map.of()),
                    near(centres[random.nextInt(centres.length)], random)));
            if (batch.size() == BATCH || i == chunks - 1) {
                store.upsert(namespace, batch);
                batch.clear();
            }
        }
    }

    /**
     * Opens a copy of the layout with {@code options} and every namespace in it, then searches the small one for
     * {@code limitNanos} after its warm-up or, with {@code untilSettled}, until every large one is merged into one
     * committed segment (failing past the limit).
     */
    private static Phase phase(Path layout, Map<String, String> options, List<Namespace> large, float[][] queries, long limitNanos,
                               boolean untilSettled) throws IOException {
        Path copy = TestFiles.copyTree(layout, Files.createTempDirectory("corpora-idle-merge"));
        try (VectorStore store = open(copy, options)) {
            for (int q = 0; q < WARMUP_QUERIES; q++) {
                store.search(SMALL, SearchRequest.vector(queries[q % queries.length], 10, MetadataFilter.all(), null, null));
            }
            long cpuBefore = OS.getProcessCpuTime();
            long start = System.nanoTime();
            long deadline = start + limitNanos;
            for (Namespace namespace : large) {
                store.count(namespace, MetadataFilter.all()); // opens it: a pause in its writes begins
            }
            long[] latencies = new long[1 << 16];
            int count = 0;
            long nextCheck = 0;
            while (true) {
                long now = System.nanoTime();
                if (now >= deadline) {
                    if (untilSettled) {
                        throw new IllegalStateException("the large namespaces did not settle within the limit");
                    }
                    break;
                }
                if (untilSettled && now >= nextCheck) {
                    nextCheck = now + 100_000_000L;
                    if (large.stream().allMatch(namespace -> segments(copy, namespace) == 1)) {
                        break;
                    }
                }
                long before = System.nanoTime();
                store.search(SMALL, SearchRequest.vector(queries[count % queries.length], 10, MetadataFilter.all(), null, null));
                if (count == latencies.length) {
                    latencies = Arrays.copyOf(latencies, count * 2);
                }
                latencies[count++] = System.nanoTime() - before;
            }
            long wall = System.nanoTime() - start;
            return new Phase(Arrays.copyOf(latencies, count), wall, (OS.getProcessCpuTime() - cpuBefore) / (double) wall);
        } finally {
            TestFiles.deleteTree(copy);
        }
    }

    private record Phase(long[] latencies, long wallNanos, double cores) {

        Phase {
            Arrays.sort(latencies);
        }

        double percentile(double p) {
            return latencies[Math.min(latencies.length - 1, (int) Math.ceil(p * latencies.length) - 1)] / 1e6;
        }

        void print(String name) {
            System.out.printf(Locale.ROOT, "%-40s %8d %8.3f %8.3f %8.3f %10.1f %8.2f%n", name, latencies.length, percentile(0.50),
                    percentile(0.99), percentile(0.999), wallNanos / 1e9, cores);
        }
    }

    private static VectorStore open(Path directory, Map<String, String> options) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        return provider.create(PluginContext.of(directory, "idle-merge-bench"),
                PluginConfig.validate(provider.name(), provider.configOptions(), options));
    }

    private static int segments(Path data, Namespace namespace) {
        try (FSDirectory directory = FSDirectory.open(LuceneVectorStore.pathOf(data, namespace))) {
            return SegmentInfos.readLatestCommit(directory).size();
        } catch (IOException e) {
            return -1; // a commit being written: read again at the next check
        }
    }

    private static float[] near(float[] centre, Random random) {
        float[] noise = gaussian(random, 0.35);
        for (int d = 0; d < DIMENSION; d++) {
            noise[d] += centre[d];
        }
        return unit(noise);
    }

    private static float[] gaussian(Random random, double sigma) {
        float[] vector = new float[DIMENSION];
        for (int d = 0; d < DIMENSION; d++) {
            vector[d] = (float) (random.nextGaussian() * sigma / Math.sqrt(DIMENSION));
        }
        return vector;
    }

    private static float[] unit(float[] vector) {
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        for (int d = 0; d < vector.length; d++) {
            vector[d] *= scale;
        }
        return vector;
    }
}
