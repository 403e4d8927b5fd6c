package io.corpora.store.lucene.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import io.corpora.testkit.TestVectors;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;

/**
 * What {@code storedFields.blockKb} costs a hybrid retrieval's two legs, which load every hit they return (50 each for
 * a top 10): SciFact's abstracts stored as chunks (title and text; synthetic 384-d vectors, since loading does not
 * depend on them) into two stores, one per block size, then both legs (vector and keyword, 50 deep, SciFact's queries)
 * timed on each store in turn, rounds alternating. Prints the legs' p50 and mean per block size, the difference per
 * loaded hit, and each namespace's bytes on disk. Not a unit test. Arguments: {@code corpus.jsonl queries.jsonl
 * [rounds]}, default 5 rounds.
 *
 * <pre>java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -Dorg.apache.lucene.vectorization.upperJavaFeatureVersion=25 \
 *     -cp "plugins/store-lucene/target/test-classes:plugins/store-lucene/target/classes:$(cat plugins/store-lucene/target/bench.classpath)" \
 *     io.corpora.store.lucene.bench.StoredBlockBenchmark ../shared/datasets/scifact/corpus.jsonl ../shared/datasets/scifact/queries.jsonl</pre>
 */
public final class StoredBlockBenchmark {

    private static final int[] BLOCK_KB = {80, 16};
    private static final int DEPTH = 50;
    private static final int DIMENSION = 384;
    private static final Namespace NS = Namespace.of("scifact");
    private static final ObjectMapper JSON = new ObjectMapper();

    private StoredBlockBenchmark() {}

    public static void main(String[] args) throws Exception {
        List<JsonNode> corpus = read(Path.of(args[0]));
        List<String> queries = read(Path.of(args[1])).stream().map(query -> query.get("text").asText()).toList();
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        TestVectors synthetic = new TestVectors(7, DIMENSION);
        List<EmbeddedChunk> chunks = new ArrayList<>();
        for (JsonNode document : corpus) {
            String id = document.get("_id").asText();
            chunks.add(new EmbeddedChunk(new Chunk(id, id, 0, document.get("title").asText() + "\n\n" + document.get("text").asText(),
                    List.of(), Map.of("title", document.get("title").asText())), synthetic.next()));
        }
        float[][] vectors = new float[queries.size()][];
        for (int q = 0; q < vectors.length; q++) {
            vectors[q] = synthetic.next();
        }

        Path root = Files.createTempDirectory("corpora-stored-block");
        VectorStore[] stores = new VectorStore[BLOCK_KB.length];
        try {
            for (int s = 0; s < stores.length; s++) {
                Path directory = root.resolve(BLOCK_KB[s] + "kb");
                try (VectorStore writing = open(directory, BLOCK_KB[s])) {
                    for (int from = 0; from < chunks.size(); from += 500) {
                        writing.upsert(NS, chunks.subList(from, Math.min(chunks.size(), from + 500)));
                    }
                }
                stores[s] = open(directory, BLOCK_KB[s]);
                System.out.printf(Locale.ROOT, "blockKb %d: %,d chunks, %,d bytes on disk, %d segments%n", BLOCK_KB[s], chunks.size(),
                        bytes(directory), segments(LuceneVectorStore.pathOf(directory, NS)));
            }
            long[][] nanos = new long[stores.length][rounds * queries.size()];
            for (int s = 0; s < stores.length; s++) { // warm-up, not measured
                legs(stores[s], queries, vectors, new long[queries.size()], 0);
            }
            for (int round = 0; round < rounds; round++) {
                for (int s = 0; s < stores.length; s++) {
                    int store = round % 2 == 0 ? s : stores.length - 1 - s;
                    legs(stores[store], queries, vectors, nanos[store], round * queries.size());
                }
            }
            System.out.printf(Locale.ROOT, "%-10s %10s %10s%n", "blockKb", "p50 ms", "mean ms");
            double[] means = new double[stores.length];
            for (int s = 0; s < stores.length; s++) {
                long[] sorted = nanos[s].clone();
                Arrays.sort(sorted);
                means[s] = Arrays.stream(sorted).average().orElseThrow() / 1e6;
                System.out.printf(Locale.ROOT, "%-10d %10.3f %10.3f%n", BLOCK_KB[s], sorted[sorted.length / 2] / 1e6, means[s]);
            }
            System.out.printf(Locale.ROOT, "%d queries x %d rounds, vector and keyword legs %d deep; mean difference %.2f us per loaded hit%n",
                    queries.size(), rounds, DEPTH, (means[0] - means[1]) * 1e3 / (2 * DEPTH));
        } finally {
            for (VectorStore store : stores) {
                if (store != null) {
                    store.close();
                }
            }
            TestFiles.deleteTree(root);
        }
    }

    private static void legs(VectorStore store, List<String> queries, float[][] vectors, long[] nanos, int offset) {
        for (int q = 0; q < queries.size(); q++) {
            long start = System.nanoTime();
            int hits = store.search(NS, SearchRequest.vector(vectors[q], DEPTH, MetadataFilter.all(), null, null)).size()
                    + store.search(NS, SearchRequest.keyword(queries.get(q), DEPTH, MetadataFilter.all(), null, null)).size();
            nanos[offset + q] = System.nanoTime() - start;
            if (hits == 0) {
                throw new IllegalStateException("no hits for query " + q);
            }
        }
    }

    private static VectorStore open(Path directory, int blockKb) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        return provider.create(PluginContext.of(directory, "stored-block-bench"), PluginConfig.validate(provider.name(),
                provider.configOptions(), Map.of("storedFields.blockKb", String.valueOf(blockKb), "merge.idleSegments", "0")));
    }

    private static List<JsonNode> read(Path jsonl) throws IOException {
        List<JsonNode> lines = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(jsonl)) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                if (!line.isBlank()) {
                    lines.add(JSON.readTree(line));
                }
            }
        }
        return lines;
    }

    private static long bytes(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(Files::isRegularFile).mapToLong(file -> file.toFile().length()).sum();
        }
    }

    private static int segments(Path namespace) throws IOException {
        try (FSDirectory directory = FSDirectory.open(namespace)) {
            return SegmentInfos.readLatestCommit(directory).size();
        }
    }
}
