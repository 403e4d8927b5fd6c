package io.corpora.cli.bench;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.tenancy.ReservedKeyStamper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/** The tenants of a profile on the Lucene store, and every measurement made on them. */
final class Fleet {

    private static final int WRITE_BATCH = 1_000;

    /** A measured tenant: its rank in the Zipf order, and its chunks' ids, texts and vectors. */
    record Tenant(String bucket, int rank, Namespace namespace, List<String> ids, List<String> texts, List<float[]> vectors) {
        int size() {
            return ids.size();
        }
    }

    private final Profile profile;
    private final BenchCorpus corpus;
    private final Embedder model;
    private final PluginRegistry registry;
    private final Path work;
    private final PrintStream err;

    Fleet(Profile profile, BenchCorpus corpus, Embedder model, PluginRegistry registry, Path work, PrintStream err) {
        this.profile = profile;
        this.corpus = corpus;
        this.model = model;
        this.registry = registry;
        this.work = work;
        this.err = err;
    }

    private VectorStore open(String name, Map<String, String> extra) throws Exception {
        Map<String, String> config = new java.util.HashMap<>(extra);
        config.put("directory", work.resolve(name).toString());
        config.put("numCandidatesFactor", String.valueOf(Systems.NUM_CANDIDATES_FACTOR)); // the breadth the raw baseline matches
        config.put("minCandidates", String.valueOf(Systems.MIN_CANDIDATES));
        // No merge when a namespace's writes pause: ten thousand namespaces written in one go would pause together and
        // merge beside the cells; the fleet measures the layout Lucene's tiered policy leaves (the HTTP cells the server's).
        config.put("merge.idleSegments", "0");
        return registry.create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, name), config);
    }

    private Path namespaceDirectory(String store, Namespace namespace) {
        return work.resolve(store).resolve(namespace.tenant()).resolve(namespace.partitionKey());
    }

    static Namespace namespaceOf(int rank) {
        return Namespace.of("t" + rank);
    }

    /** The tenants measured, by rank: the smallest, the median and the largest of {@code shape}. */
    static Map<Integer, String> measuredRanks(Profile shape) {
        Map<Integer, String> buckets = new java.util.LinkedHashMap<>();
        buckets.put(shape.tenants(), "smallest");
        buckets.put(medianRank(shape), "median");
        buckets.put(1, "largest");
        return buckets;
    }

    static int medianRank(Profile shape) {
        return Math.max(1, shape.tenants() / 2);
    }

    /** A written fleet: the measured tenants (smallest first), the chunks written and how long writing took. */
    record Written(List<Tenant> measured, long chunks, double seconds) {}

    /**
     * Writes every tenant of {@code shape} into {@code store}, smallest first, in batches of {@link #WRITE_BATCH}, stamped
     * as the pipeline stamps; keeps the measured tenants' chunks for exact search and the peers.
     */
    static Written write(Profile shape, BenchCorpus corpus, String embedderId, VectorStore store, String storeName, PrintStream err) {
        Map<Integer, String> buckets = measuredRanks(shape);
        List<Tenant> measured = new ArrayList<>();
        long start = System.nanoTime();
        long written = 0;
        for (int rank = shape.tenants(); rank >= 1; rank--) {
            Namespace namespace = namespaceOf(rank);
            int size = shape.sizeOf(rank);
            // A measured tenant's chunks are made once, written and kept; the others batch by batch.
            List<EmbeddedChunk> kept = buckets.containsKey(rank) ? chunks(corpus, embedderId, rank, 0, size) : null;
            for (int from = 0; from < size; from += WRITE_BATCH) {
                int to = Math.min(size, from + WRITE_BATCH);
                store.upsert(namespace, kept != null ? kept.subList(from, to) : chunks(corpus, embedderId, rank, from, to));
                written += to - from;
            }
            if (kept != null) {
                measured.add(tenant(buckets.get(rank), rank, kept));
            }
            // As the server's working set closes an idle tenant (10,000 open indexes would hold ~30,000 files); a measured
            // one too: the close commits what only the translog held, so the raw searcher (the last commit) reads exactly
            // the segments Corpora reopens.
            store.releaseTenant(namespace.tenant());
            if (rank % Math.max(1, shape.tenants() / 10) == 0) {
                err.printf("bench: %s: %d tenants to go, %d chunks written, %.0f s%n", storeName, rank - 1, written, (System.nanoTime() - start) / 1e9);
            }
        }
        return new Written(measured, written, (System.nanoTime() - start) / 1e9);
    }

    /**
     * The measured tenants (smallest, median, largest) with the chunks {@link #write} gives them, without writing the
     * fleet: for the HTTP cells alone ({@code --only http}), whose server builds its tenants itself.
     */
    static List<Tenant> measuredTenants(Profile shape, BenchCorpus corpus, String embedderId) {
        List<Tenant> measured = new ArrayList<>();
        measuredRanks(shape).forEach((rank, bucket) -> measured.add(tenant(bucket, rank, chunks(corpus, embedderId, rank, 0, shape.sizeOf(rank)))));
        return measured;
    }

    private static Tenant tenant(String bucket, int rank, List<EmbeddedChunk> chunks) {
        return new Tenant(bucket, rank, namespaceOf(rank), chunks.stream().map(c -> c.chunk().id()).toList(),
                chunks.stream().map(c -> c.chunk().text()).toList(), chunks.stream().map(EmbeddedChunk::embedding).toList());
    }

    /** Chunks {@code from} (inclusive) to {@code to} of the tenant of {@code rank}, stamped as the pipeline stamps. */
    private static List<EmbeddedChunk> chunks(BenchCorpus corpus, String embedderId, int rank, int from, int to) {
        Namespace namespace = namespaceOf(rank);
        List<EmbeddedChunk> chunks = new ArrayList<>(to - from);
        for (int j = from; j < to; j++) {
            chunks.add(BenchCommand.chunk(namespace, embedderId, rank, j, corpus.text(rank, j), corpus.vector(rank, j)));
        }
        return chunks;
    }

    /** Writes the fleet and measures it; returns the measured tenants (smallest, median, largest). */
    List<Tenant> run(BenchResults results) throws Exception {
        String embedderId = model.fingerprint().id();
        int median = medianRank(profile);
        List<Tenant> measured;
        VectorStore store = open("lucene", Map.of());
        try {
            Written fleet = write(profile, corpus, embedderId, store, "lucene", err);
            measured = fleet.measured();
            long written = fleet.chunks();
            double seconds = fleet.seconds();
            results.note("fleet", String.format("%d tenants, %d chunks (largest %d, median %d, smallest %d), written to the Lucene store in %.0f s"
                    + " (%.0f chunks/s, precomputed vectors, upserts of <= %d chunks)", profile.tenants(), written, profile.sizeOf(1),
                    profile.sizeOf(median), profile.sizeOf(profile.tenants()), seconds, written / seconds, WRITE_BATCH));
            results.note("store size on disk", String.format("%.1f MB", BenchCommand.sizeOf(work.resolve("lucene")) / 1e6));

            settleMerges(store, measured, results);
            warmUp(store, measured);
            for (Tenant tenant : measured) {
                measureTenant(store, tenant, results);
            }
            interference(store, measured.get(0), measured.get(measured.size() - 1), results);
        } finally {
            store.close();
        }
        coldTenant(measured.get(1), results);
        quantised(measured.get(measured.size() - 1), results);
        return measured;
    }

    /**
     * Reopens each measured tenant and waits for the merges that opening starts to finish and be committed. Its release
     * after writing closed its writer, which aborts a running merge (the store closes a writer without commit-on-close,
     * which Lucene does by rolling back); opening restarts it. Measured before they ended, Corpora searched beside the
     * merges and its searcher could move to merged segments mid-cell while raw Lucene kept the commit it opened: the
     * full profile's largest tenant was measured over 3 segments in one run and 11 in the next (33 as written, 6 once
     * settled, in the first run that waited).
     */
    private void settleMerges(VectorStore store, List<Tenant> measured, BenchResults results) throws IOException, InterruptedException {
        for (Tenant tenant : measured) {
            Path indexDirectory = namespaceDirectory("lucene", tenant.namespace());
            int before = Systems.segments(indexDirectory);
            store.count(tenant.namespace(), MetadataFilter.all()); // opens it: its first reader asks the merge policy
            Systems.Settled settled = Systems.settle(indexDirectory, before, Systems.SETTLED_QUIET);
            results.note("merges before measuring, " + tenant.bucket() + " tenant", settled.describe("reopening it"));
            err.println("bench: " + settled.progress(tenant.bucket()));
        }
    }

    /**
     * Every system on every measured tenant, unmeasured, before the first cell: each cell's own warm-up is too short for
     * the JIT to compile a whole path on a loaded machine, which made the first cell measured an outlier.
     */
    private void warmUp(VectorStore store, List<Tenant> measured) {
        err.printf("bench: warming up every system on the measured tenants (%d ms each)%n", profile.warmup().toMillis());
        for (Tenant tenant : measured) {
            Path indexDirectory = namespaceDirectory("lucene", tenant.namespace());
            try (Systems.Search corpora = Systems.corpora(store, tenant.namespace(), model, corpus.queryTexts, corpus.queryVectors, false);
                 Systems.Search raw = Systems.rawLucene(indexDirectory, corpus.queryVectors, Systems.TOP_K);
                 Systems.Search rawSameBreadth = Systems.rawLucene(indexDirectory, corpus.queryVectors, Systems.CORPORA_CANDIDATES);
                 Systems.Search peer = Systems.langChain4j(tenant.ids(), tenant.texts(), tenant.vectors(), corpus.queryVectors)) {
                for (Systems.Search search : List.of(corpora, raw, rawSameBreadth, peer)) {
                    Latency.measure(1, profile.warmup(), Duration.ZERO, q -> search.top(q, null));
                }
            }
        }
    }

    private void measureTenant(VectorStore store, Tenant tenant, BenchResults results) throws Exception {
        err.printf("bench: measuring the %s tenant (%d chunks)%n", tenant.bucket(), tenant.size());
        List<float[]> queries = corpus.queryVectors;
        MetadataFilter even = MetadataFilter.eq("parity", 0L);
        Systems.Search corpora = Systems.corpora(store, tenant.namespace(), model, corpus.queryTexts, queries, false);
        Systems.Search corporaEmbedding = Systems.corpora(store, tenant.namespace(), model, corpus.queryTexts, queries, true);
        Path indexDirectory = namespaceDirectory("lucene", tenant.namespace());
        try (Systems.Search raw = Systems.rawLucene(indexDirectory, queries, Systems.TOP_K);
             Systems.Search rawSameBreadth = Systems.rawLucene(indexDirectory, queries, Systems.CORPORA_CANDIDATES);
             Systems.Search peer = Systems.langChain4j(tenant.ids(), tenant.texts(), tenant.vectors(), queries)) {
            // recall@10 against exact search over the tenant's own vectors, unfiltered and filtered (half the chunks)
            double recall = 0;
            double recallFiltered = 0;
            double peerRecall = 0;
            double rawRecall = 0;
            double rawSameBreadthRecall = 0;
            for (int q = 0; q < queries.size(); q++) {
                List<String> truth = exact(tenant, queries.get(q), false);
                recall += overlap(corpora.top(q, null), truth);
                recallFiltered += overlap(corpora.top(q, even), exact(tenant, queries.get(q), true));
                peerRecall += overlap(peer.top(q, null), truth);
                rawRecall += overlap(raw.top(q, null), truth);
                rawSameBreadthRecall += overlap(rawSameBreadth.top(q, null), truth);
            }
            int n = queries.size();
            results.recall(tenant, recall / n, recallFiltered / n, peerRecall / n, rawRecall / n, rawSameBreadthRecall / n);
            results.segments(tenant, "in process (written in batches of " + WRITE_BATCH + ")", Systems.segments(indexDirectory));
            Duration window = profile.window();
            Duration warmup = profile.warmup();
            for (int clients : BenchCommand.CLIENTS) {
                results.latency(tenant, "corpora (no embedding)", Latency.measure(clients, window, warmup, q -> corpora.top(q, null)));
                results.latency(tenant, "raw lucene", Latency.measure(clients, window, warmup, q -> raw.top(q, null)));
                results.latency(tenant, "raw lucene, corpora's breadth", Latency.measure(clients, window, warmup, q -> rawSameBreadth.top(q, null)));
                results.latency(tenant, "langchain4j in-memory", Latency.measure(clients, window, warmup, q -> peer.top(q, null)));
                if (tenant.bucket().equals("largest")) { // the model's cost does not depend on the tenant: measured once
                    results.latency(tenant, "corpora (with embedding)", Latency.measure(clients, window, warmup, q -> corporaEmbedding.top(q, null)));
                }
            }
            results.latency(tenant, "corpora filtered (no embedding)", Latency.measure(1, window, warmup, q -> corpora.top(q, even)));
        }
    }

    /** The exact top 10 by cosine (vectors are unit length, so the dot product). */
    static List<String> exact(Tenant tenant, float[] query, boolean evenOnly) {
        PriorityQueue<double[]> best = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
        for (int i = 0; i < tenant.size(); i++) {
            if (evenOnly && i % 2 != 0) {
                continue;
            }
            float[] v = tenant.vectors().get(i);
            double dot = 0;
            for (int d = 0; d < v.length; d++) {
                dot += v[d] * query[d];
            }
            best.add(new double[] {dot, i});
            if (best.size() > 10) {
                best.poll();
            }
        }
        List<String> ids = new ArrayList<>();
        best.forEach(e -> ids.add(tenant.ids().get((int) e[1])));
        return ids;
    }

    static double overlap(List<String> found, List<String> exact) {
        if (exact.isEmpty()) {
            return 1;
        }
        Set<String> truth = new HashSet<>(exact);
        return found.stream().filter(truth::contains).count() / (double) exact.size();
    }

    /** The smallest tenant's p50 alone, then while the largest tenant ingests through the real pipeline (model included). */
    private void interference(VectorStore store, Tenant small, Tenant large, BenchResults results) throws Exception {
        Systems.Search search = Systems.corpora(store, small.namespace(), model, corpus.queryTexts, corpus.queryVectors, false);
        Latency.Result alone = Latency.measure(1, profile.window(), profile.warmup(), q -> search.top(q, null));
        AtomicBoolean stop = new AtomicBoolean();
        ChunkIndexer indexer = new ChunkIndexer(store, large.namespace(), model, new HeadingContextualizer());
        int[] ingested = new int[1];
        Thread ingest = new Thread(() -> {
            for (int i = 0; !stop.get(); i++) {
                String documentId = "ingest-" + i;
                List<Chunk> chunks = new ArrayList<>();
                for (int c = 0; c < 4; c++) {
                    chunks.add(ReservedKeyStamper.stamp(new Chunk(documentId + "#" + c, documentId, c, corpus.texts.get((i * 4 + c) % corpus.texts.size()),
                            List.of(), Map.of("source", "bench")), large.namespace(), documentId, 1));
                }
                indexer.index(chunks);
                ingested[0] += chunks.size();
            }
        }, "bench-ingest");
        ingest.start();
        Thread.sleep(500);
        Latency.Result during;
        try {
            during = Latency.measure(1, profile.window(), Duration.ZERO, q -> search.top(q, null));
        } finally {
            stop.set(true);
            ingest.join();
        }
        results.interference(small, alone, during, ingested[0]);
    }

    /** A tenant nobody has opened in this store instance: its first query (opening the index) against its warm p50. */
    private void coldTenant(Tenant tenant, BenchResults results) throws Exception {
        try (VectorStore store = open("lucene", Map.of())) {
            Systems.Search search = Systems.corpora(store, tenant.namespace(), model, corpus.queryTexts, corpus.queryVectors, false);
            long start = System.nanoTime();
            search.top(0, null);
            double first = (System.nanoTime() - start) / 1e6;
            Latency.Result warm = Latency.measure(1, profile.window(), profile.warmup(), q -> search.top(q, null));
            results.cold(tenant, first, warm);
        }
    }

    /** The largest tenant again on a store with int8 scalar quantisation: recall, latency and bytes on disk, beside float32. */
    private void quantised(Tenant tenant, BenchResults results) throws Exception {
        try (VectorStore int8 = open("lucene-int8", Map.of("quantization", "int8"))) {
            String embedderId = model.fingerprint().id();
            for (int from = 0; from < tenant.size(); from += WRITE_BATCH) {
                List<EmbeddedChunk> batch = new ArrayList<>();
                for (int j = from; j < Math.min(tenant.size(), from + WRITE_BATCH); j++) {
                    batch.add(BenchCommand.chunk(tenant.namespace(), embedderId, tenant.rank(), j, tenant.texts().get(j), tenant.vectors().get(j)));
                }
                int8.upsert(tenant.namespace(), batch);
            }
            int8.releaseTenant(tenant.namespace().tenant()); // committed, no translog: its bytes on disk compare with float32's
            Systems.Search search = Systems.corpora(int8, tenant.namespace(), model, corpus.queryTexts, corpus.queryVectors, false);
            double recall = 0;
            for (int q = 0; q < corpus.queryVectors.size(); q++) {
                recall += overlap(search.top(q, null), exact(tenant, corpus.queryVectors.get(q), false));
            }
            Latency.Result latency = Latency.measure(1, profile.window(), profile.warmup(), q -> search.top(q, null));
            long floatBytes = BenchCommand.sizeOf(namespaceDirectory("lucene", tenant.namespace()));
            long int8Bytes = BenchCommand.sizeOf(namespaceDirectory("lucene-int8", tenant.namespace()));
            results.quantised(tenant, recall / corpus.queryVectors.size(), latency, floatBytes, int8Bytes);
        }
    }
}
