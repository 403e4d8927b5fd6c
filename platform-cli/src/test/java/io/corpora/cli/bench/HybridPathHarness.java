package io.corpora.cli.bench;

import io.corpora.cli.eval.BeirDataset;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.engine.retriever.HybridRetriever;
import io.corpora.engine.retriever.KeywordRetriever;
import io.corpora.engine.retriever.Retriever;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.tenancy.IsolationGuard;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/**
 * A profiling harness, not a test: where a hybrid retrieval's time goes on one large namespace — each leg alone at the
 * hybrid's fetch depth, vector mode at top 10, and the hybrid with its legs one after the other and overlapped — with
 * real texts (a BEIR corpus, cycled) so the keyword leg does real BM25 work, and clustered synthetic vectors (nothing
 * embedded; the query vector is given, as a query-embedding cache hit gives it). One client; run it beside a JFR recording:
 *
 * <pre>java -cp TEST_CLASSPATH io.corpora.cli.bench.HybridPathHarness PLUGINS_DIR DATASET_DIR SECONDS CHUNKS [ROUNDS [ONLY [KEY=VALUE...]]]</pre>
 *
 * ONLY keeps the systems whose name contains it ("" for all; for a recording of one of them); KEY=VALUE are Lucene
 * store options (numCandidatesFactor=2, say).
 *
 * Each round measures every system in turn, so a drifting load falls on all of them.
 */
public final class HybridPathHarness {

    private static final int TOP_K = 10;

    private HybridPathHarness() {}

    public static void main(String[] args) throws Exception {
        Path plugins = Path.of(args[0]);
        BeirDataset dataset = BeirDataset.open(Path.of(args[1]), "test");
        Duration window = Duration.ofSeconds(Long.parseLong(args[2]));
        int size = Integer.parseInt(args[3]);
        int rounds = args.length > 4 ? Integer.parseInt(args[4]) : 2;
        String only = args.length > 5 ? args[5] : "";
        Path work = Files.createTempDirectory("corpora-hybridpath-");
        PluginRegistry registry = PluginManager.load(plugins);
        ClusteredVectors vectors = new ClusteredVectors();
        List<String> texts = new ArrayList<>();
        dataset.forEachDocument(d -> texts.add(d.title() + ". " + (d.text().length() > 700 ? d.text().substring(0, 700) : d.text())));
        List<String> queryTexts = dataset.queries().stream().map(BeirDataset.Query::text).toList();
        Map<String, float[]> queryVectors = new HashMap<>();
        for (int q = 0; q < queryTexts.size(); q++) {
            queryVectors.put(queryTexts.get(q), vectors.near(q));
        }
        Map<String, String> config = new HashMap<>();
        config.put("directory", work.resolve("lucene").toString());
        for (int a = 6; a < args.length; a++) {
            config.put(args[a].substring(0, args[a].indexOf('=')), args[a].substring(args[a].indexOf('=') + 1));
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try (Embedder model = registry.create(EmbedderProvider.class, "onnx", BenchCommand.context(work, "embedder"), Map.of());
             VectorStore store = registry.create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, "lucene"), config)) {
            Namespace namespace = Namespace.of("t" + size);
            List<EmbeddedChunk> batch = new ArrayList<>();
            for (int j = 0; j < size; j++) {
                batch.add(BenchCommand.chunk(namespace, model.fingerprint().id(), size, j, texts.get(j % texts.size()) + " [c" + j + "]",
                        vectors.near(j)));
                if (batch.size() == 1000 || j == size - 1) {
                    store.upsert(namespace, batch);
                    batch = new ArrayList<>();
                }
            }
            store.releaseTenant(namespace.tenant());
            Embedder given = Systems.queryVectors(model, queryVectors, false);
            String embedderId = model.fingerprint().id();
            Map<String, Function<IsolationGuard, Retriever>> systems = new java.util.LinkedHashMap<>();
            systems.put("vector top 10", guard -> new VectorRetriever(guard, namespace, given, embedderId));
            systems.put("vector leg (top 50)", guard -> new Leg(new VectorRetriever(guard, namespace, given, embedderId)));
            systems.put("keyword leg (top 50)", guard -> new Leg(new KeywordRetriever(guard, namespace, embedderId)));
            systems.put("hybrid, legs in turn", guard -> HybridRetriever.of(FusionSpec.STANDARD,
                    new VectorRetriever(guard, namespace, given, embedderId), new KeywordRetriever(guard, namespace, embedderId),
                    HybridRetriever.DEFAULT_FETCH_TOP_K));
            systems.put("hybrid, legs side by side", guard -> HybridRetriever.of(FusionSpec.STANDARD,
                    new VectorRetriever(guard, namespace, given, embedderId, pool), new KeywordRetriever(guard, namespace, embedderId),
                    HybridRetriever.DEFAULT_FETCH_TOP_K));
            systems.keySet().removeIf(name -> !name.contains(only));
            RetrieveOptions options = new RetrieveOptions(TOP_K, null, null, 100_000);
            for (int round = 1; round <= rounds; round++) {
                for (Map.Entry<String, Function<IsolationGuard, Retriever>> system : systems.entrySet()) {
                    Latency.Result result = Latency.measure(1, window, window.dividedBy(2), q -> {
                        IsolationGuard guard = new IsolationGuard(store, namespace, IsolationGuard.DEFAULT_OVER_FETCH, Systems::versionOne);
                        system.getValue().apply(guard).retrieve(queryTexts.get(q % queryTexts.size()), options);
                    });
                    System.out.printf("round %d, %d chunks, %-22s p50 %7.3f ms  p99 %7.3f ms  (%d calls)%n", round, size, system.getKey(),
                            result.p50Ms(), result.p99Ms(), result.operations());
                }
            }
        } finally {
            pool.shutdownNow();
            BenchCommand.deleteRecursively(work);
        }
    }

    /** One leg as a hybrid runs it: its fetch depth instead of the request's top K. */
    private record Leg(Retriever retriever) implements Retriever {
        @Override
        public io.corpora.engine.retriever.RetrievalResult retrieve(String query, RetrieveOptions options) {
            return retriever.retrieve(query, new RetrieveOptions(HybridRetriever.DEFAULT_FETCH_TOP_K, options.filter(), null, options.maxChars()));
        }
    }
}
