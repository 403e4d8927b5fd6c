package io.corpora.store.lucene.bench;

import com.sun.management.OperatingSystemMXBean;
import io.corpora.testkit.TestFiles;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;

/**
 * What a namespace's segment count costs its kNN searches: raw Lucene on a copy of an index a server wrote (a
 * namespace directory, e.g. the largest tenant a {@code bin/corpora bench --http-keep} run left), queried with k = 100
 * and 200 (the HNSW breadth of a top-10 vector retrieval and of a hybrid retrieval's 50-deep vector leg) by one caller:
 * as written, searched one segment after another (the store's way) and with the searcher's segments spread over a
 * 2-thread executor (reporting how many queries did not return the same top 50 each of five times: Lucene shares the best
 * score between segments as they run, so concurrent segment searches can depend on timing); then the same copy
 * force-merged to at most four segments (Lucene's tiered policy merges the smallest) and to one (the HNSW settings are
 * the store's defaults). Queries are stored vectors moved by noise.
 * Before that merge, how long closing the writer takes a few seconds into it, as a namespace's close does (commit,
 * then roll back, which aborts running merges and waits for them: Lucene 9's HNSW graph build never checks).
 * Each layout also reports recall against exact search. With a third argument, only the vectors are measured, rewritten
 * into that many equal segments (as an ingest leaves them before its merges).
 * Not a unit test. Arguments: {@code namespaceDirectory [queries [segments]]} (default 1,500 queries per cell). On JDK 21
 * and later give it the flags the server runs with, or Lucene 9 scores vectors without SIMD on JDK 23 and later.
 *
 * <pre>java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dorg.apache.lucene.vectorization.upperJavaFeatureVersion=25 \
 *     -cp "plugins/store-lucene/target/test-classes:plugins/store-lucene/target/classes:$(cat plugins/store-lucene/target/bench.classpath)" \
 *     io.corpora.store.lucene.bench.SegmentSearchBenchmark OUT/server/data/vector-store/lucene-…/bench-largest/_default [1500 14]</pre>
 */
public final class SegmentSearchBenchmark {

    private static final int[] BREADTHS = {100, 200};
    private static final int ROUNDS = 3;
    private static final int COMPARED = 50;
    private static final int ASKED = 5;
    private static final double NOISE = 0.05;
    private static final OperatingSystemMXBean OS = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    private SegmentSearchBenchmark() {}

    public static void main(String[] args) throws Exception {
        Path source = Path.of(args[0]);
        int queries = args.length > 1 ? Integer.parseInt(args[1]) : 1_500;
        if (args.length > 2) { // the same vectors in that many equal segments, as an ingest leaves them before merges
            Path split = Files.createTempDirectory("corpora-segment-split");
            try {
                int segments = Integer.parseInt(args[2]);
                long start = System.nanoTime();
                split(source, split, segments);
                System.out.printf(Locale.ROOT, "the vectors rewritten into %d segments in %.1f s%n", segments, (System.nanoTime() - start) / 1e9);
                measure("split", split, queries, null);
            } finally {
                TestFiles.deleteTree(split);
            }
            return;
        }
        Path copy = Files.createTempDirectory("corpora-segment-search");
        ExecutorService pool = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "segment-search");
            thread.setDaemon(true);
            return thread;
        });
        try {
            copyIndex(source, copy);
            measure("as written", copy, queries, pool);
            closeDuringMerge(copy);
            for (int segments : new int[] {4, 1}) { // 4: the smallest merged together, as a settling policy would
                long start = System.nanoTime();
                forceMerge(copy, segments);
                System.out.printf(Locale.ROOT, "force-merged to at most %d segments in %.1f s%n", segments, (System.nanoTime() - start) / 1e9);
                measure("at most " + segments + " segments", copy, queries, pool);
            }
        } finally {
            pool.shutdownNow();
            TestFiles.deleteTree(copy); // the copy is as large as the index
        }
    }

    /** Only the vectors (the store's field, its similarity) of the live documents, in {@code segments} equal segments. */
    private static void split(Path source, Path target, int segments) throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(source));
             IndexWriter writer = new IndexWriter(FSDirectory.open(target), writerConfig()
                     .setMergePolicy(NoMergePolicy.INSTANCE).setRAMBufferSizeMB(1024).setMaxBufferedDocs(Integer.MAX_VALUE))) {
            String field = vectorField(reader);
            int perSegment = (reader.numDocs() + segments - 1) / segments;
            int[] written = {0};
            forEachLiveVector(reader, field, (doc, vector, similarity) -> {
                Document document = new Document();
                document.add(new KnnFloatVectorField(field, vector.clone(), similarity));
                writer.addDocument(document);
                if (++written[0] % perSegment == 0) {
                    writer.flush();
                }
            });
            writer.commit();
        }
    }

    private static void measure(String label, Path index, int queries, ExecutorService pool) throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index))) {
            String field = vectorField(reader);
            float[][] probes = probes(reader, field, new Random(42));
            System.out.printf(Locale.ROOT, "%s: %d segments, %d chunks, field %s%n", label, reader.leaves().size(), reader.numDocs(), field);
            IndexSearcher sequential = new IndexSearcher(reader);
            List<IndexSearcher> searchers = pool == null ? List.of(sequential) : List.of(sequential, new IndexSearcher(reader, pool));
            for (int round = 1; round <= ROUNDS; round++) { // the first round warms the JIT and the page cache
                for (int k : BREADTHS) {
                    for (IndexSearcher searcher : searchers) {
                        long cpu = OS.getProcessCpuTime();
                        long wall = System.nanoTime();
                        for (int q = 0; q < queries; q++) {
                            searcher.search(new KnnFloatVectorQuery(field, probes[q % probes.length], k), k);
                        }
                        System.out.printf(Locale.ROOT, "  round %d  k=%d  %-32s %.3f ms wall, %.3f ms CPU per query%n", round, k,
                                searcher == sequential ? "segments one after another" : "segments on a 2-thread executor",
                                (System.nanoTime() - wall) / 1e6 / queries, (OS.getProcessCpuTime() - cpu) / 1e6 / queries);
                    }
                }
            }
            recall(reader, sequential, field, probes);
            for (IndexSearcher searcher : searchers) {
                int differing = 0;
                for (float[] probe : probes) {
                    Set<Integer> first = top(searcher, field, probe);
                    for (int again = 1; again < ASKED; again++) {
                        if (!top(searcher, field, probe).equals(first)) {
                            differing++;
                            break;
                        }
                    }
                }
                System.out.printf(Locale.ROOT, "  %-32s asked %d times, %d of %d queries did not always return the same top %d at k=200%n",
                        searcher == sequential ? "segments one after another" : "segments on a 2-thread executor", ASKED, differing, probes.length,
                        COMPARED);
            }
        }
    }

    /**
     * Recall against exact search (every live vector scored): of the best 10 at breadth 100 (a top-10 vector retrieval)
     * and of the best 50 at breadth 200 (a hybrid retrieval's vector leg). One exact scan per query serves both.
     */
    private static void recall(DirectoryReader reader, IndexSearcher searcher, String field, float[][] probes) throws IOException {
        int[][] cells = {{100, 10}, {200, COMPARED}};
        long[] found = new long[cells.length];
        long[] wanted = new long[cells.length]; // n per query, or every live chunk of a smaller index
        for (float[] probe : probes) {
            List<Integer> exact = exactBest(reader, field, probe, COMPARED);
            for (int c = 0; c < cells.length; c++) {
                int k = cells[c][0];
                int n = cells[c][1];
                Set<Integer> best = new HashSet<>(exact.subList(0, Math.min(n, exact.size())));
                found[c] += overlap(best, searcher.search(new KnnFloatVectorQuery(field, probe, k), k).scoreDocs, n);
                wanted[c] += best.size();
            }
        }
        for (int c = 0; c < cells.length; c++) {
            System.out.printf(Locale.ROOT, "  recall@%d at breadth %d against exact search: %.4f (%d queries)%n", cells[c][1], cells[c][0],
                    found[c] / (double) Math.max(1, wanted[c]), probes.length);
        }
    }

    private static long overlap(Set<Integer> exact, ScoreDoc[] found, int n) {
        long hits = 0;
        for (int i = 0; i < Math.min(n, found.length); i++) {
            if (exact.contains(found[i].doc)) {
                hits++;
            }
        }
        return hits;
    }

    /** The {@code n} live documents most similar to {@code probe}, best first. */
    private static List<Integer> exactBest(DirectoryReader reader, String field, float[] probe, int n) throws IOException {
        PriorityQueue<ScoreDoc> best = new PriorityQueue<>(Comparator.comparingDouble((ScoreDoc d) -> d.score));
        forEachLiveVector(reader, field, (doc, vector, similarity) -> {
            best.add(new ScoreDoc(doc, similarity.compare(probe, vector)));
            if (best.size() > n) {
                best.poll();
            }
        });
        List<Integer> docs = new ArrayList<>(best.size());
        while (!best.isEmpty()) {
            docs.add(best.poll().doc); // worst first
        }
        Collections.reverse(docs);
        return docs;
    }

    /** One live document's vector (a buffer the reader reuses: copy it to keep it), its index-wide doc id and similarity. */
    @FunctionalInterface
    private interface LiveVector {
        void accept(int doc, float[] vector, VectorSimilarityFunction similarity) throws IOException;
    }

    private static void forEachLiveVector(DirectoryReader reader, String field, LiveVector action) throws IOException {
        for (LeafReaderContext leaf : reader.leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            if (values == null) {
                continue;
            }
            VectorSimilarityFunction similarity = leaf.reader().getFieldInfos().fieldInfo(field).getVectorSimilarityFunction();
            Bits live = leaf.reader().getLiveDocs();
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
                if (live == null || live.get(doc)) {
                    action.accept(leaf.docBase + doc, values.vectorValue(), similarity);
                }
            }
        }
    }

    private static Set<Integer> top(IndexSearcher searcher, String field, float[] probe) throws IOException {
        Set<Integer> docs = new HashSet<>();
        ScoreDoc[] found = searcher.search(new KnnFloatVectorQuery(field, probe, 200), 200).scoreDocs;
        for (int i = 0; i < Math.min(COMPARED, found.length); i++) {
            docs.add(found[i].doc);
        }
        return docs;
    }

    /**
     * Up to 200 stored vectors (spread over the segments by size), each moved by N(0, 0.05) per dimension and renormalised: about 0.7 cosine from the chunk it
     * started from, as a question is from the passage that answers it.
     */
    private static float[][] probes(DirectoryReader reader, String field, Random random) throws IOException {
        List<float[]> probes = new ArrayList<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            int wanted = (int) Math.ceil(200.0 * leaf.reader().maxDoc() / reader.maxDoc());
            for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS && wanted > 0; doc = values.nextDoc()) {
                if (random.nextInt(Math.max(1, leaf.reader().maxDoc() / wanted)) == 0) {
                    float[] probe = values.vectorValue().clone();
                    double norm = 0;
                    for (int i = 0; i < probe.length; i++) {
                        probe[i] += (float) (random.nextGaussian() * NOISE);
                        norm += probe[i] * probe[i];
                    }
                    for (int i = 0; i < probe.length; i++) {
                        probe[i] /= (float) Math.sqrt(norm);
                    }
                    probes.add(probe);
                    wanted--;
                }
            }
        }
        return probes.toArray(float[][]::new);
    }

    private static String vectorField(DirectoryReader reader) {
        for (FieldInfo info : reader.leaves().get(0).reader().getFieldInfos()) {
            if (info.getVectorDimension() > 0) {
                return info.name;
            }
        }
        throw new IllegalArgumentException("no vector field in the index");
    }

    /** The index files only (no translog, no write lock), so the copy opens as the last commit left it. */
    private static void copyIndex(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.list(source)) {
            for (Path file : files.sorted(Comparator.naturalOrder()).toList()) {
                String name = file.getFileName().toString();
                if (Files.isRegularFile(file) && (name.startsWith("_") || name.startsWith("segments"))) {
                    Files.copy(file, target.resolve(name));
                }
            }
        }
    }

    /** Starts the merge down to one segment, and 3 s later closes the writer as {@code NamespaceIndex.close} does. */
    private static void closeDuringMerge(Path index) throws IOException, InterruptedException {
        IndexWriter writer = new IndexWriter(FSDirectory.open(index), writerConfig().setCommitOnClose(false));
        writer.forceMerge(1, false);
        Thread.sleep(3_000);
        long start = System.nanoTime();
        writer.commit();
        writer.close(); // commitOnClose false: a rollback, which aborts the running merge and waits for it to stop
        System.out.printf(Locale.ROOT, "closing the writer 3 s into that merge took %.1f s%n", (System.nanoTime() - start) / 1e9);
    }

    private static IndexWriterConfig writerConfig() {
        KnnVectorsFormat hnsw = new Lucene99HnswVectorsFormat(); // M 16, beamWidth 100: the store's defaults
        return new IndexWriterConfig().setCodec(new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return hnsw;
            }
        });
    }

    private static void forceMerge(Path index, int segments) throws IOException {
        try (IndexWriter writer = new IndexWriter(FSDirectory.open(index), writerConfig())) {
            writer.forceMerge(segments);
            writer.commit();
        }
    }
}
