package io.corpora.cli.eval;

import io.corpora.cli.Command;
import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.embed.DocumentEmbeddingCache;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code corpora eval}: measures retrieval quality on a BEIR-format dataset with the real chunker, retrievers and
 * plugins (store, embedder, reranker loaded from a plugins directory, the store in a fresh temporary directory); with
 * {@code --tenant}, has a running server evaluate a judged set on a live tenant instead ({@link TenantEvaluation}).
 */
public final class EvalCommand implements Command {

    static final Path DEFAULT_PLUGINS = Path.of("platform-cli", "target", "plugins");
    static final Path DEFAULT_CACHE = Path.of(System.getProperty("user.home"), ".cache", "corpora", "embeddings");

    private static final Set<String> VALUED = Set.of("dataset", "split", "mode", "plugins", "k1", "b", "reranker", "limit-queries",
            "store", "embedder", "chunk-size", "overlap", "depth", "rerank-depth", "cache", "fusion", "doc-chunks",
            "embedder-config", "store-config", "keyword-variants", "served-leg-depth");
    private static final Set<String> FLAGS = Set.of("json", "no-cache", "with-legs");

    @Override
    public String name() {
        return "eval";
    }

    @Override
    public String summary() {
        return "measure retrieval quality (nDCG@10, Recall@100, MRR@10, latency) on a BEIR-format dataset or a live tenant";
    }

    @Override
    public String usage() {
        return """
                usage: corpora eval --dataset DIR [options]
                  --dataset DIR         BEIR folder: corpus.jsonl, queries.jsonl, qrels.tsv (header line), optional train/
                  --split NAME          test (default) or train; tune on train, report on test
                  --mode MODE           bm25 (default) | vector | hybrid | hybrid+rerank
                  --json                also print one JSON object as the last line:
                                        ndcg@10, recall@100, mrr@10, queries, ingest_seconds, p50_ms, p99_ms
                  --plugins DIR         plugins directory (default platform-cli/target/plugins)
                  --store NAME          store provider (default lucene); it runs in a fresh temporary directory
                  --store-config K=V[,K=V]  options for the store (e.g. keyword.titleBoost=1,keyword.prf.chunks=10)
                  --keyword-variants K=V[,K=V][;K=V…]  bm25 and hybrid modes: more keyword legs, each a store of the same
                                        provider with these options over the corpus text (no vectors), measured alone
                                        (bm25, --with-legs) and fused with the same vector leg, in the same run
                  --embedder NAME       embedder provider for vector modes (default onnx)
                  --embedder-config K=V[,K=V]  settings for the embedder (e.g. queryInstruction=none); the embedding
                                        cache keeps their vectors apart from the defaults'
                  --reranker NAME       reranker provider for hybrid+rerank (default maxsim)
                  --k1 X --b Y          BM25 parameters passed to the store (its defaults otherwise: lucene 1.2 / 0.75)
                  --chunk-size N        chunk window in characters (default 800)
                  --overlap N           chunk overlap in characters (default 100)
                  --depth N             chunks retrieved per query and per hybrid leg (default 300, for 100 distinct documents)
                  --rerank-depth N      chunks the reranker reorders (default 20); deeper ranks keep the hybrid order
                  --fusion LIST         hybrid fusions to measure, comma-separated, over one index and the same leg
                                        results: rrf | rrf:K | rrf:K:VW:KW | convex-minmax:ALPHA | convex-zscore:ALPHA
                                        (ALPHA = vector weight); default the shipped one, convex-zscore:0.6
                  --with-legs           in hybrid modes, also report bm25 and vector alone from the same leg results
                  --served-leg-depth LIST  in hybrid mode, also each fusion as the server runs it, per depth N (comma-
                                        separated): legs asked for N chunks (the server's 50), N fused kept; their
                                        nDCG@10 and MRR@10 compare with the others, their Recall@100 does not
                  --doc-chunks LIST     document scores to measure, comma-separated, over the same chunk rankings: N = the
                                        sum of a document's best N chunks (default 1: its best chunk)
                  --limit-queries N     evaluate only the first N queries that have qrels
                  --cache DIR           embedding cache (default ~/.cache/corpora/embeddings), keyed by fingerprint + text hash
                  --no-cache            embed everything afresh

                """ + TenantEvaluation.USAGE;
    }

    @Override
    public int run(List<String> args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        if (args.contains("--tenant")) {
            return new TenantEvaluation().run(args, out, err);
        }
        Options options = Options.parse(args, VALUED, FLAGS);
        Path datasetDir = Path.of(options.requireString("dataset"));
        String split = options.string("split", "test");
        EvalMode mode = EvalMode.parse(options.choice("mode", EvalMode.BM25.label(), EvalMode.labels()));
        ChunkingOptions chunking = chunking(options);
        int depth = options.integer("depth", 300, 100, 1000);
        int rerankDepth = options.integer("rerank-depth", 20, 1, depth);
        int limit = options.integer("limit-queries", 0, 1, Integer.MAX_VALUE);
        Map<String, String> embedderConfig = keyValues(options, "embedder-config");
        Map<String, String> storeConfig = keyValues(options, "store-config");
        List<Integer> documentChunks = documentChunks(options);
        List<Map<String, String>> keywordVariants = keywordVariants(options);
        options.decimal("k1").ifPresent(k1 -> storeConfig.put("bm25.k1", String.valueOf(k1)));
        options.decimal("b").ifPresent(b -> storeConfig.put("bm25.b", String.valueOf(b)));

        BeirDataset dataset;
        try {
            dataset = BeirDataset.open(datasetDir, split);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        // bin/corpora passes the build's plugins directory as corpora.plugins.dir, so eval works from any directory.
        Path plugins = options.path("plugins", Path.of(System.getProperty("corpora.plugins.dir", DEFAULT_PLUGINS.toString())));
        if (!Files.isDirectory(plugins)) {
            throw new UsageException("plugins directory " + plugins.toAbsolutePath() + " does not exist (build the plugins, or pass --plugins DIR)");
        }
        PluginRegistry registry = PluginManager.load(plugins);
        registry.problems().forEach(p -> err.println("plugin problem: " + p));

        Path work = Files.createTempDirectory("corpora-eval-");
        String storeName = options.string("store", "lucene");
        storeConfig.put("directory", work.resolve("store").toString());
        VectorStore store = null;
        Map<String, VectorStore> variantStores = new java.util.LinkedHashMap<>();
        Embedder embedder = null;
        Reranker reranker = null;
        try {
            store = registry.create(VectorStoreProvider.class, storeName, context(work, "store"), storeConfig);
            for (int i = 0; i < keywordVariants.size(); i++) {
                Map<String, String> variantConfig = new java.util.TreeMap<>(storeConfig);
                variantConfig.putAll(keywordVariants.get(i));
                variantConfig.put("directory", work.resolve("keyword-variant-" + i).toString());
                variantStores.put(label(keywordVariants.get(i)),
                        registry.create(VectorStoreProvider.class, storeName, context(work, "keyword-variant-" + i), variantConfig));
            }
            if (mode.needsEmbedder()) {
                Embedder loaded = registry.create(EmbedderProvider.class, options.string("embedder", "onnx"), context(work, "embedder"), embedderConfig);
                embedder = options.flag("no-cache") ? loaded : new CachingEmbedder(loaded, options.path("cache", DEFAULT_CACHE),
                        DocumentEmbeddingCache.documentSettings(embedderConfig), variant(embedderConfig));
            }
            if (mode.needsReranker()) {
                reranker = registry.create(RerankerProvider.class, options.string("reranker", "maxsim"), context(work, "reranker"), Map.of());
            }
            String configuration = describe(storeName, storeConfig, embedder, embedderConfig, options, chunking, depth, rerankDepth, mode);
            err.println("eval: " + mode.label() + " on " + datasetDir + " (" + split + "), " + configuration);
            EvalRun.Settings settings = settings(mode, chunking, depth, rerankDepth, limit, configuration, fusions(options),
                    options.flag("with-legs"), documentChunks, servedLegDepths(options));
            List<EvalReport> reports = run(settings, new EvalRun.Components(store, embedder, reranker, variantStores), err, dataset);
            if (embedder instanceof CachingEmbedder cache) {
                err.printf("embedding cache: %d hits, %d misses%n", cache.hits(), cache.misses());
            }
            for (int i = 0; i < reports.size(); i++) {
                out.println((i > 0 ? System.lineSeparator() : "") + reports.get(i).toTable());
            }
            if (options.flag("json")) {
                reports.forEach(r -> out.println(r.toJson()));
            }
            return 0;
        } finally {
            closeQuietly(reranker, err);
            closeQuietly(embedder, err);
            closeQuietly(store, err);
            variantStores.values().forEach(v -> closeQuietly(v, err));
            deleteRecursively(work);
        }
    }

    private static List<FusionSpec> fusions(Options options) {
        String list = options.string("fusion").orElse(null);
        if (list == null) {
            return List.of(FusionSpec.STANDARD);
        }
        try {
            return java.util.Arrays.stream(list.split(",")).filter(f -> !f.isBlank()).map(FusionSpec::parse).toList();
        } catch (IllegalArgumentException e) {
            throw new UsageException("--fusion: " + e.getMessage());
        }
    }

    private static String variant(Map<String, String> settings) {
        return settings.isEmpty() ? "" : settings.toString();
    }

    /** The settings, with the command's own checks of their combination as usage errors. */
    private static EvalRun.Settings settings(EvalMode mode, ChunkingOptions chunking, int depth, int rerankDepth, int limit,
                                             String configuration, List<FusionSpec> fusions, boolean withLegs, List<Integer> documentChunks,
                                             List<Integer> servedLegDepths) {
        try {
            return new EvalRun.Settings(mode, chunking, depth, rerankDepth, limit, configuration, fusions, withLegs, documentChunks,
                    servedLegDepths);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static List<EvalReport> run(EvalRun.Settings settings, EvalRun.Components components, PrintStream err, BeirDataset dataset) {
        EvalRun run;
        try {
            run = new EvalRun(settings, components, err);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        return run.runAll(dataset);
    }

    /** {@code --keyword-variants a=1,b=2;a=3}: each a set of store options for one more keyword leg. */
    static List<Map<String, String>> keywordVariants(Options options) {
        List<Map<String, String>> variants = new java.util.ArrayList<>();
        for (String set : options.string("keyword-variants", "").split(";")) {
            if (!set.isBlank()) {
                variants.add(keyValues("keyword-variants", set));
            }
        }
        return variants;
    }

    /** Settings as {@code k=v k=v}, in their map's order. */
    private static String label(Map<String, String> settings) {
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(b.length() == 0 ? "" : " ").append(k).append('=').append(v));
        return b.toString();
    }

    /** {@code --served-leg-depth 50,20}: each a depth of the as-served hybrid's legs; none by default. */
    static List<Integer> servedLegDepths(Options options) {
        List<Integer> depths = new java.util.ArrayList<>();
        for (String n : options.string("served-leg-depth", "").split(",")) {
            if (n.isBlank()) {
                continue;
            }
            try {
                depths.add(Integer.parseInt(n.strip()));
            } catch (NumberFormatException e) {
                throw new UsageException("--served-leg-depth: expected whole numbers, got '" + n.strip() + "'");
            }
        }
        return depths;
    }

    /** {@code --doc-chunks 1,2,3}: each a document score to measure. */
    static List<Integer> documentChunks(Options options) {
        List<Integer> counts = new java.util.ArrayList<>();
        for (String n : options.string("doc-chunks", "1").split(",")) {
            try {
                counts.add(Integer.parseInt(n.strip()));
            } catch (NumberFormatException e) {
                throw new UsageException("--doc-chunks: expected whole numbers 1.." + EvalRun.MAX_DOCUMENT_CHUNKS + ", got '" + n.strip() + "'");
            }
        }
        return counts;
    }

    /** {@code --NAME k=v,k=v} (embedder or store settings), sorted so that one set of settings is one cache variant. */
    static Map<String, String> keyValues(Options options, String name) {
        return keyValues(name, options.string(name, ""));
    }

    private static Map<String, String> keyValues(String name, String pairs) {
        Map<String, String> config = new java.util.TreeMap<>();
        for (String pair : pairs.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new UsageException("--" + name + ": expected KEY=VALUE, got '" + pair + "'");
            }
            config.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return config;
    }

    private static ChunkingOptions chunking(Options options) {
        int size = options.integer("chunk-size", ChunkingOptions.DEFAULT_CHUNK_SIZE, 50, 100_000);
        int overlap = options.integer("overlap", ChunkingOptions.DEFAULT_OVERLAP, 0, 100_000);
        try {
            return ChunkingOptions.of(size, overlap);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    private static String describe(String storeName, Map<String, String> storeConfig, Embedder embedder, Map<String, String> embedderConfig,
                                   Options options,
                                   ChunkingOptions chunking, int depth, int rerankDepth, EvalMode mode) {
        StringBuilder b = new StringBuilder("store ").append(storeName);
        Map<String, String> shown = new java.util.TreeMap<>(storeConfig);
        shown.remove("directory");
        if (!shown.isEmpty()) {
            b.append(' ').append(label(shown));
        }
        if (embedder != null) {
            b.append(", embedder ").append(embedder.fingerprint().id());
            if (!embedderConfig.isEmpty()) {
                b.append(' ').append(embedderConfig);
            }
        }
        if (mode.needsReranker()) {
            b.append(", reranker ").append(options.string("reranker", "maxsim")).append(" over top ").append(rerankDepth);
        }
        return b.append(", chunks ").append(chunking.chunkSize()).append('/').append(chunking.overlap())
                .append(", depth ").append(depth).toString();
    }

    private static PluginContext context(Path work, String role) throws IOException {
        return PluginContext.of(Files.createDirectories(work.resolve(role + "-data")), "io.corpora.cli.eval." + role);
    }

    private static void closeQuietly(AutoCloseable closeable, PrintStream err) {
        if (closeable == null) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            err.println("warning: closing " + closeable + " failed: " + e);
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
