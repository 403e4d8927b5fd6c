package io.corpora.cli.eval;

import io.corpora.engine.chunk.Chunkers;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.retrieval.evaluation.RetrievalMetrics;
import io.corpora.engine.retriever.HybridRetriever;
import io.corpora.engine.retriever.KeywordRetriever;
import io.corpora.engine.retriever.RerankingRetriever;
import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.store.VectorStore;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One evaluation: indexes a BEIR corpus through the engine (chunker → heading/title contextualizer → embedder →
 * store), runs every query that has qrels through the mode's retriever, ranks documents by their best chunk, and
 * averages the metrics. The components are given, so the command can load real plugins and tests can pass any
 * real store and embedder.
 */
public final class EvalRun {

    /**
     * @param depth       chunks retrieved per query (and per hybrid leg), enough for 100 distinct documents
     * @param rerankDepth chunks the reranker reorders (the rest keep the base order)
     * @param maxQueries  evaluate only the first N queries with qrels (0: all)
     */
    public record Settings(EvalMode mode, ChunkingOptions chunking, int depth, int rerankDepth, int maxQueries, String configuration,
                           List<FusionSpec> fusions, boolean withLegs, List<Integer> documentChunks, List<Integer> servedLegDepths) {
        /**
         * @param fusions  the hybrid fusions to measure, each over the same index and the same leg results (hybrid modes)
         * @param withLegs in hybrid mode, also report the keyword (bm25) and vector legs alone, from the same leg results
         * @param documentChunks document scores to measure, each over the same chunk rankings: the sum of a document's best
         *                       N chunks (1: its best chunk's); reranked modes rank documents by their best chunk only
         * @param servedLegDepths in hybrid mode, also measure each fusion as the server runs it, once per depth N given: legs
         *                        of their own asked for N chunks (the server's {@code HybridRetriever.DEFAULT_FETCH_TOP_K}
         *                        is 50), so the store searches as broadly as it does for that depth, and N fused chunks
         *                        ranked (enough for ten distinct documents); empty: not measured. Only their nDCG@10 and
         *                        MRR@10 compare with the others
         */
        public Settings {
            Objects.requireNonNull(mode, "mode");
            Objects.requireNonNull(chunking, "chunking");
            fusions = fusions == null || fusions.isEmpty() ? List.of(FusionSpec.STANDARD) : List.copyOf(fusions);
            if (depth < 100 || depth > RetrieveOptions.MAX_TOP_K) {
                throw new IllegalArgumentException("depth must be 100.." + RetrieveOptions.MAX_TOP_K + " chunks, got " + depth);
            }
            if (rerankDepth < 1 || rerankDepth > depth) {
                throw new IllegalArgumentException("rerank depth must be 1..depth, got " + rerankDepth);
            }
            documentChunks = documentChunks == null || documentChunks.isEmpty() ? List.of(1) : List.copyOf(documentChunks);
            boolean inRange = documentChunks.stream().allMatch(n -> n >= 1 && n <= MAX_DOCUMENT_CHUNKS);
            if (!inRange || documentChunks.stream().distinct().count() < documentChunks.size()) {
                throw new IllegalArgumentException("document chunks must be distinct, each 1.." + MAX_DOCUMENT_CHUNKS + ", got " + documentChunks);
            }
            servedLegDepths = servedLegDepths == null ? List.of() : List.copyOf(servedLegDepths);
            if (!servedLegDepths.isEmpty() && (mode != EvalMode.HYBRID
                    || servedLegDepths.stream().anyMatch(n -> n < 1 || n > depth) || servedLegDepths.stream().distinct().count() < servedLegDepths.size())) {
                throw new IllegalArgumentException("served leg depths must be distinct, each 1..depth (" + depth + "), in hybrid mode; got "
                        + servedLegDepths + " in mode " + mode.label());
            }
            if (mode.needsReranker() && !documentChunks.equals(List.of(1))) {
                throw new IllegalArgumentException("a reranked run ranks documents by their best chunk; document chunks other than 1 apply to "
                        + "the other modes");
            }
        }

        public Settings(EvalMode mode, ChunkingOptions chunking, int depth, int rerankDepth, int maxQueries, String configuration) {
            this(mode, chunking, depth, rerankDepth, maxQueries, configuration, List.of(FusionSpec.STANDARD), false, List.of(1));
        }

        public Settings(EvalMode mode, ChunkingOptions chunking, int depth, int rerankDepth, int maxQueries, String configuration,
                        List<FusionSpec> fusions, boolean withLegs, List<Integer> documentChunks) {
            this(mode, chunking, depth, rerankDepth, maxQueries, configuration, fusions, withLegs, documentChunks, List.of());
        }
    }

    /**
     * What the run uses; the embedder and reranker are null when the mode needs none.
     *
     * @param keywordVariants more keyword legs, by label: stores of other keyword settings (e.g. a title boost) that
     *                        hold the same chunks' text only; each is measured alone and fused with the same vector leg
     */
    public record Components(VectorStore store, Embedder embedder, Reranker reranker, Map<String, VectorStore> keywordVariants) {

        public Components {
            keywordVariants = keywordVariants == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(keywordVariants));
        }

        public Components(VectorStore store, Embedder embedder, Reranker reranker) {
            this(store, embedder, reranker, Map.of());
        }
    }

    static final Namespace NAMESPACE = Namespace.of("eval");
    static final int MAX_DOCUMENT_CHUNKS = 10;
    private static final int UPSERT_BATCH = 512;
    /** Room for the title separator and the heading path joiners the contextualizer adds. */
    private static final int CONTEXT_TOKEN_MARGIN = 4;

    private final Settings settings;
    private final Components components;
    private final PrintStream progress;
    private int chunkCount;
    private int documentCount;

    public EvalRun(Settings settings, Components components, PrintStream progress) {
        this.settings = settings;
        this.components = components;
        this.progress = progress;
        if (settings.mode().needsEmbedder() && components.embedder() == null) {
            throw new IllegalArgumentException("mode " + settings.mode().label() + " needs an embedder");
        }
        if (settings.mode().needsReranker() && components.reranker() == null) {
            throw new IllegalArgumentException("mode " + settings.mode().label() + " needs a reranker");
        }
        if (!components.keywordVariants().isEmpty() && (settings.mode() == EvalMode.VECTOR || settings.mode().needsReranker())) {
            throw new IllegalArgumentException("keyword variants are measured in bm25 and hybrid mode, not " + settings.mode().label());
        }
    }

    public EvalReport run(BeirDataset dataset) {
        return runAll(dataset).get(0);
    }

    /**
     * Indexes once and measures every candidate: each fusion of the settings (hybrid modes; the legs run once per query
     * and every fusion merges the same leg results, so only the first candidate's latency includes the legs), and with
     * {@code withLegs} the legs alone. A query that fails
     * (an exception from a plugin or the engine) does not abort the run: it scores zero, is counted, and the first
     * failures are reported.
     */
    public List<EvalReport> runAll(BeirDataset dataset) {
        double ingestSeconds = index(dataset);
        Map<String, Map<String, Integer>> qrels = dataset.qrels();
        List<BeirDataset.Query> queries = new ArrayList<>(dataset.queries().stream().filter(q -> qrels.containsKey(q.id())).toList());
        if (settings.maxQueries() > 0 && queries.size() > settings.maxQueries()) {
            queries = new ArrayList<>(queries.subList(0, settings.maxQueries()));
        }
        if (queries.isEmpty()) {
            throw new IllegalArgumentException("no query of split '" + dataset.split() + "' has qrels");
        }
        List<Candidate> candidates = candidates();
        List<Tally> tallies = new ArrayList<>();
        for (Candidate candidate : candidates) {
            tallies.add(new Tally(queries.size()));
            safely(candidate.runner(), queries.get(0)); // warm-up, not timed: the first query pays class loading and JIT
        }
        // queries outer, candidates inner: the memoised legs hold one query's results at a time
        for (int i = 0; i < queries.size(); i++) {
            BeirDataset.Query query = queries.get(i);
            Map<String, Integer> relevance = qrels.get(query.id());
            for (int c = 0; c < candidates.size(); c++) {
                tallies.get(c).measure(i, query, candidates.get(c).runner(), relevance);
            }
            if ((i + 1) % 100 == 0) {
                progress.printf("  %d/%d queries%n", i + 1, queries.size());
            }
        }
        List<EvalReport> reports = new ArrayList<>();
        int n = queries.size();
        for (int c = 0; c < candidates.size(); c++) {
            Candidate candidate = candidates.get(c);
            Tally t = tallies.get(c);
            String configuration = settings.configuration() + candidate.detail();
            reports.add(new EvalReport(dataset.directory().toString(), dataset.split(), candidate.label(), configuration,
                    documentCount, chunkCount, n, t.ndcg / n, t.recall / n, t.mrr / n, ingestSeconds,
                    EvalReport.percentile(t.latencies, 50), EvalReport.percentile(t.latencies, 99), t.degraded, t.failed, t.failures));
        }
        return reports;
    }

    /** One candidate's running sums; a failed query scores zero and is counted. */
    private static final class Tally {
        final double[] latencies;
        final List<String> failures = new ArrayList<>();
        double ndcg;
        double recall;
        double mrr;
        int degraded;
        int failed;

        Tally(int queries) {
            latencies = new double[queries];
        }

        void measure(int i, BeirDataset.Query query, QueryRunner runner, Map<String, Integer> relevance) {
            long start = System.nanoTime();
            Ranked ranked;
            try {
                ranked = runner.rank(query);
            } catch (RuntimeException e) {
                failed++;
                if (failures.size() < EvalReport.MAX_LISTED_FAILURES) {
                    failures.add(query.id() + ": " + e);
                }
                ranked = new Ranked(List.of(), false);
            }
            latencies[i] = (System.nanoTime() - start) / 1e6;
            ndcg += RetrievalMetrics.ndcg(ranked.documents(), relevance, 10);
            recall += RetrievalMetrics.recall(ranked.documents(), relevance, 100);
            mrr += RetrievalMetrics.reciprocalRank(ranked.documents(), relevance, 10);
            degraded += ranked.degraded() ? 1 : 0;
        }
    }

    private static void safely(QueryRunner runner, BeirDataset.Query query) {
        try {
            runner.rank(query);
        } catch (RuntimeException ignored) {
            // measured (and reported) with the other queries
        }
    }

    /** Chunks, contextualizes, embeds (modes with vectors) and upserts the corpus; returns the seconds it took. */
    double index(BeirDataset dataset) {
        long start = System.nanoTime();
        Embedder embedder = settings.mode().needsEmbedder() ? components.embedder() : null;
        ChunkIndexer indexer = new ChunkIndexer(components.store(), NAMESPACE, embedder, new HeadingContextualizer());
        List<ChunkIndexer> variants = components.keywordVariants().values().stream()
                .map(variant -> new ChunkIndexer(variant, NAMESPACE, null, new HeadingContextualizer())).toList();
        Chunkers plain = new Chunkers(settings.chunking());
        TokenCounter tokens = embedder == null ? null : embedder.tokenCounter().orElse(null);
        int tokenLimit = embedder == null ? 0 : embedder.maxInputTokens();
        List<Chunk> batch = new ArrayList<>();
        dataset.forEachDocument(doc -> {
            LoadedDocument document = new LoadedDocument(ContentFormat.PROSE, doc.title().isBlank() ? null : doc.title(),
                    List.of(Section.of(doc.text().isBlank() ? doc.title() : doc.text())), Map.of());
            Chunkers chunkers = plain;
            if (tokens != null && tokenLimit > 0) {
                // the index text is "title\n\nchunk": the chunk gets what the title leaves of the model's window
                int room = tokenLimit - tokens.countTokens(doc.title()) - CONTEXT_TOKEN_MARGIN;
                chunkers = new Chunkers(settings.chunking().withTokenLimit(tokens, Math.max(32, room)));
            }
            List<Chunk> chunks = chunkers.chunk(doc.id(), document);
            batch.addAll(chunks);
            chunkCount += chunks.size();
            documentCount++;
            if (batch.size() >= UPSERT_BATCH) {
                indexer.index(batch);
                variants.forEach(v -> v.index(batch));
                batch.clear();
            }
            if (documentCount % 1000 == 0) {
                progress.printf("  indexed %d documents (%d chunks, %.0f s)%n", documentCount, chunkCount, (System.nanoTime() - start) / 1e9);
            }
        });
        indexer.index(batch);
        variants.forEach(v -> v.index(batch));
        return (System.nanoTime() - start) / 1e9;
    }

    private record Ranked(List<String> documents, boolean degraded) {}

    @FunctionalInterface
    private interface QueryRunner {
        Ranked rank(BeirDataset.Query query);
    }

    /**
     * One measured configuration: its report label, what it adds to the run's configuration (keyword variant, fusion,
     * document score), how it ranks.
     */
    private record Candidate(String label, String detail, QueryRunner runner) {}

    private List<Candidate> candidates() {
        RetrieveOptions options = RetrieveOptions.topK(settings.depth());
        List<Candidate> candidates = new ArrayList<>();
        boolean several = settings.documentChunks().size() > 1;
        Map<String, Retriever> keywordLegs = new LinkedHashMap<>();
        switch (settings.mode()) {
            case BM25 -> {
                keywordLegs.put("", new KeywordRetriever(components.store(), NAMESPACE));
                components.keywordVariants().forEach((label, store) -> keywordLegs.put(label, new KeywordRetriever(store, NAMESPACE)));
                keywordLegs.forEach((variant, keyword) ->
                        ranked(candidates, EvalMode.BM25.label(), keywordDetail(variant), memoIf(several, keyword), options));
            }
            case VECTOR -> ranked(candidates, EvalMode.VECTOR.label(), "", memoIf(several, vectorRetriever()), options);
            case HYBRID, HYBRID_RERANK -> {
                // the legs run once per query; every fusion (and the legs alone) reuses their results
                keywordLegs.put("", new MemoRetriever(keywordOverEmbedded()));
                components.keywordVariants().forEach((label, store) ->
                        keywordLegs.put(label, new MemoRetriever(new KeywordRetriever(store, NAMESPACE))));
                Retriever vector = new MemoRetriever(vectorRetriever());
                if (settings.withLegs()) {
                    keywordLegs.forEach((variant, keyword) -> ranked(candidates, EvalMode.BM25.label(), keywordDetail(variant), keyword, options));
                    ranked(candidates, EvalMode.VECTOR.label(), "", vector, options);
                }
                keywordLegs.forEach((variant, keyword) -> {
                    for (FusionSpec fusion : settings.fusions()) {
                        Retriever hybrid = HybridRetriever.of(fusion, vector, keyword, settings.depth());
                        String detail = keywordDetail(variant) + ", fusion " + fusion.describe();
                        if (settings.mode() == EvalMode.HYBRID_RERANK) {
                            candidates.add(new Candidate(settings.mode().label(), detail, reranked(hybrid, options)));
                        } else {
                            ranked(candidates, settings.mode().label(), detail, memoIf(several, hybrid), options);
                        }
                        for (int served : variant.isEmpty() ? settings.servedLegDepths() : List.<Integer>of()) {
                            // legs of their own asked for `served` chunks (so the store searches as broadly as for that depth), fused; as
                            // many fused chunks kept, so ten distinct documents are ranked as in the deeper runs
                            Retriever asServed = HybridRetriever.of(fusion, vectorRetriever(), keywordOverEmbedded(), served);
                            ranked(candidates, settings.mode().label(), detail + ", as served: legs of " + served,
                                    memoIf(several, asServed), RetrieveOptions.topK(served));
                        }
                    }
                });
            }
        }
        return candidates;
    }

    private static String keywordDetail(String variant) {
        return variant.isEmpty() ? "" : ", keyword " + variant;
    }

    /** One candidate per document score measured, all ranking documents from the retriever's same chunk ranking. */
    private void ranked(List<Candidate> candidates, String label, String detail, Retriever retriever, RetrieveOptions options) {
        for (int n : settings.documentChunks()) {
            candidates.add(new Candidate(label, detail + (n > 1 ? ", document = sum of best " + n + " chunks" : ""),
                    query -> new Ranked(DocumentRanking.of(retriever.retrieve(query.text(), options).passages(), query.id(), n), false)));
        }
    }

    private static Retriever memoIf(boolean memo, Retriever retriever) {
        return memo ? new MemoRetriever(retriever) : retriever;
    }

    private QueryRunner reranked(Retriever base, RetrieveOptions options) {
        return query -> {
            RetrievalResult deep = base.retrieve(query.text(), options);
            // rerank the head of the fused ranking; the replay hands the reranker the same candidates without a second search
            Retriever replay = (text, opts) -> new RetrievalResult(deep.passages().subList(0, Math.min(opts.topK(), deep.passages().size())),
                    deep.diagnostics());
            RetrievalResult head = new RerankingRetriever(replay, components.reranker(), settings.rerankDepth())
                    .retrieve(query.text(), RetrieveOptions.topK(settings.rerankDepth()));
            List<String> documents = DocumentRanking.append(DocumentRanking.of(head.passages(), query.id()),
                    DocumentRanking.of(deep.passages(), query.id()));
            return new Ranked(documents, head.diagnostics().degraded());
        };
    }

    private VectorRetriever vectorRetriever() {
        return new VectorRetriever(components.store(), NAMESPACE, components.embedder());
    }

    private KeywordRetriever keywordOverEmbedded() {
        return new KeywordRetriever(components.store(), NAMESPACE, components.embedder().fingerprint().id());
    }

    int chunkCount() {
        return chunkCount;
    }
}
