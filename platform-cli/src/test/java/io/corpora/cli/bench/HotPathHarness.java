package io.corpora.cli.bench;

import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A profiling harness, not a test: the bench's Corpora hot path and raw Lucene searcher on tenants of the given sizes,
 * with clustered synthetic vectors (nothing embedded, so it starts in seconds), one client, for a JFR recording:
 *
 * <pre>java -XX:StartFlightRecording=filename=hot.jfr,settings=profile -cp TEST_CLASSPATH \
 *     io.corpora.cli.bench.HotPathHarness PLUGINS_DIR SECONDS SIZE...</pre>
 *
 * Prints each system's p50 per tenant. The Corpora loop runs last and twice as long, so most of a recording is the hot path.
 */
public final class HotPathHarness {


    private HotPathHarness() {}

    public static void main(String[] args) throws Exception {
        Path plugins = Path.of(args[0]);
        Duration window = Duration.ofSeconds(Long.parseLong(args[1]));
        Path work = Files.createTempDirectory("corpora-hotpath-");
        PluginRegistry registry = PluginManager.load(plugins);
        ClusteredVectors vectors = new ClusteredVectors();
        List<String> queryTexts = new ArrayList<>();
        List<float[]> queryVectors = new ArrayList<>();
        for (int q = 0; q < 50; q++) {
            queryTexts.add("claim " + q + ": vitamin D deficiency is associated with an increased risk of respiratory infections in adults");
            queryVectors.add(vectors.near(q));
        }
        String text = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(17); // ~1,000 characters, as the bench's
        Map<String, String> config = new HashMap<>();
        config.put("directory", work.resolve("lucene").toString());
        // the bundled model, as the bench's: its tokenizer runs on every query (the window check) though nothing is embedded
        try (Embedder model = registry.create(EmbedderProvider.class, "onnx", BenchCommand.context(work, "embedder"), Map.of());
             VectorStore store = registry.create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, "lucene"), config)) {
            for (int a = 2; a < args.length; a++) {
                int size = Integer.parseInt(args[a]);
                Namespace namespace = Namespace.of("t" + size);
                List<EmbeddedChunk> batch = new ArrayList<>();
                for (int j = 0; j < size; j++) {
                    batch.add(BenchCommand.chunk(namespace, model.fingerprint().id(), size, j, text, vectors.near(j)));
                    if (batch.size() == 1000 || j == size - 1) {
                        store.upsert(namespace, batch);
                        batch = new ArrayList<>();
                    }
                }
                store.releaseTenant(namespace.tenant()); // commits: the raw searchers read the last commit, Corpora reopens the same
                Path directory = work.resolve("lucene").resolve(namespace.tenant()).resolve(namespace.partitionKey());
                Systems.Search corpora = Systems.corpora(store, namespace, model, queryTexts, queryVectors, false);
                try (Systems.Search raw = Systems.rawLucene(directory, queryVectors, Systems.TOP_K);
                     Systems.Search wide = Systems.rawLucene(directory, queryVectors, Systems.CORPORA_CANDIDATES)) {
                    Duration warmup = window.dividedBy(2);
                    double rawP50 = Latency.measure(1, window, warmup, q -> raw.top(q, null)).p50Ms();
                    double wideP50 = Latency.measure(1, window, warmup, q -> wide.top(q, null)).p50Ms();
                    Latency.Result mine = Latency.measure(1, window.multipliedBy(2), warmup, q -> corpora.top(q, null));
                    System.out.printf("%6d chunks: corpora p50 %.4f ms (%d calls), raw k=10 %.4f ms, raw k=%d %.4f ms: %.2fx / %.2fx%n", size,
                            mine.p50Ms(), mine.operations(), rawP50, Systems.CORPORA_CANDIDATES, wideP50, mine.p50Ms() / rawP50,
                            mine.p50Ms() / wideP50);
                }
            }
        } finally {
            BenchCommand.deleteRecursively(work);
        }
    }
}
