package io.corpora.cli.bench;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.tenancy.ReservedKeyStamper;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Ingest throughput: the pipeline below the REST layer (contextualize, embed, stamp, upsert durable into the Lucene store,
 * one chunk per document, as the job runner writes a document) against the raw embedder on the same texts, at each
 * concurrency (writers = the job runner's {@code corpora.ingest.jobParallelism}; the raw embedder gets as many calling
 * threads). The two are measured <em>interleaved</em>: the texts are cut into slices and every slice runs raw, pipeline,
 * pipeline, raw (ABBA), so a shared machine's load drifting during the run falls on both alike. Each side also reports the
 * whole process's CPU time per chunk, which the load of other processes barely moves: the pipeline's CPU beyond the raw
 * embedder's is its cost (issue 19: at most 10 % of the embedder's own time).
 */
final class IngestThroughput {

    static final int SLICES = 4;
    private static final int WARMUP_TEXTS = 8;
    /** Upserts that warm the store's code path (JIT) before anything is measured; a running server is warm too. */
    private static final int STORE_WARMUP_UPSERTS = 1000;

    private final Embedder model;
    private final PluginRegistry registry;
    private final Path work;
    private final PrintStream err;
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    IngestThroughput(Embedder model, PluginRegistry registry, Path work, PrintStream err) {
        this.model = model;
        this.registry = registry;
        this.work = work;
        this.err = err;
    }

    /** What one side measured: chunks, seconds and process CPU seconds, summed over the slices. */
    record Side(int chunks, double seconds, double cpuSeconds) {
        Side plus(Side other) {
            return new Side(chunks + other.chunks, seconds + other.seconds, cpuSeconds + other.cpuSeconds);
        }

        double perSecond() {
            return chunks / seconds;
        }

        double cpuMsPerChunk() {
            return 1000 * cpuSeconds / chunks;
        }
    }

    /** One concurrency's figures: the raw embedder and the pipeline on the same texts. */
    record Rates(int concurrency, Side raw, Side pipeline) {}

    List<Rates> measure(List<String> texts, List<Integer> concurrencies) throws Exception {
        warmStorePath(texts);
        List<Rates> all = new ArrayList<>();
        for (int concurrency : concurrencies) {
            all.add(measure(texts, concurrency));
        }
        return all;
    }

    private Rates measure(List<String> texts, int concurrency) throws Exception {
        try (VectorStore store = registry.create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, "ingest-" + concurrency),
                Map.of("directory", work.resolve("ingest-" + concurrency).toString()))) {
            Namespace namespace = Namespace.of("ingest");
            ChunkIndexer indexer = new ChunkIndexer(store, namespace, model, new HeadingContextualizer());
            List<String> warmup = texts.subList(0, Math.min(WARMUP_TEXTS, texts.size()));
            raw(warmup, concurrency); // JIT and first segment for both sides, unmeasured
            pipeline(indexer, namespace, warmup, concurrency, "warmup-");
            Side raw = new Side(0, 0, 0);
            Side pipeline = new Side(0, 0, 0);
            int slice = (texts.size() + SLICES - 1) / SLICES;
            for (int from = 0, s = 0; from < texts.size(); from += slice, s++) {
                List<String> part = texts.subList(from, Math.min(texts.size(), from + slice));
                if (s % 2 == 0) { // ABBA: the order alternates, so a linear drift weighs on both sides equally
                    raw = raw.plus(raw(part, concurrency));
                    pipeline = pipeline.plus(pipeline(indexer, namespace, part, concurrency, "s" + s + "-"));
                } else {
                    pipeline = pipeline.plus(pipeline(indexer, namespace, part, concurrency, "s" + s + "-"));
                    raw = raw.plus(raw(part, concurrency));
                }
            }
            long stored = store.count(namespace, MetadataFilter.all());
            if (stored != texts.size() + warmup.size()) {
                throw new IllegalStateException("the pipeline stored " + stored + " of " + (texts.size() + warmup.size()));
            }
            Rates rates = new Rates(concurrency, raw, pipeline);
            err.printf("bench: ingest at %d: raw %.1f chunks/s (%.0f ms CPU each), pipeline %.1f chunks/s (%.0f ms CPU each)%n", concurrency,
                    raw.perSecond(), raw.cpuMsPerChunk(), pipeline.perSecond(), pipeline.cpuMsPerChunk());
            return rates;
        }
    }

    /**
     * Single-chunk upserts of the texts with random unit vectors into a store of their own, unmeasured: without it the
     * pipeline's first few hundred writes pay the JIT compilation of Lucene's indexing code, which the raw embedder
     * (native ONNX Runtime) does not, and a short measurement would charge that to the pipeline.
     */
    private void warmStorePath(List<String> texts) throws Exception {
        int dimension = model.fingerprint().dimension();
        java.util.SplittableRandom random = new java.util.SplittableRandom(19);
        try (VectorStore store = registry.create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, "ingest-warmup"),
                Map.of("directory", work.resolve("ingest-warmup").toString()))) {
            Namespace namespace = Namespace.of("warmup");
            for (int i = 0; i < STORE_WARMUP_UPSERTS; i++) {
                float[] vector = new float[dimension];
                for (int d = 0; d < dimension; d++) {
                    vector[d] = (float) BenchCorpus.gaussian(random);
                }
                store.upsert(namespace, List.of(BenchCommand.chunk(namespace, model.fingerprint().id(), 0, i, texts.get(i % texts.size()),
                        io.corpora.spi.VectorMath.l2Normalize(vector))));
            }
        }
    }

    /** The embedder alone, one document's chunk per call as the pipeline calls it; texts are never cached here. */
    private Side raw(List<String> texts, int callers) throws InterruptedException {
        return timed(texts.size(), callers, i -> model.embedDocuments(List.of(texts.get(i))), "the raw embedder failed");
    }

    /** Contextualize, embed, stamp, upsert (durable when it returns), one document of one chunk per call. */
    private Side pipeline(ChunkIndexer indexer, Namespace namespace, List<String> texts, int writers, String prefix) throws InterruptedException {
        return timed(texts.size(), writers, i -> {
            String documentId = prefix + "doc-" + i;
            Chunk raw = new Chunk(documentId + "#0", documentId, 0, texts.get(i), List.of(), Map.of("source", "bench"));
            indexer.index(List.of(ReservedKeyStamper.stamp(raw, namespace, documentId, 1)));
        }, "ingest failed");
    }

    /** Runs {@code task} for items 0..count-1 on {@code threads} threads taking them in turn; wall and process CPU time. */
    private Side timed(int count, int threads, IntConsumer task, String failed) throws InterruptedException {
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        runOnThreads(count, threads, task, failed);
        return new Side(count, (System.nanoTime() - start) / 1e9, (os.getProcessCpuTime() - cpu) / 1e9);
    }

    static void runOnThreads(int count, int threads, IntConsumer task, String failed) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i; (i = next.getAndIncrement()) < count && failure.get() == null; ) {
                        task.accept(i);
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            started.add(thread);
            thread.start();
        }
        for (Thread thread : started) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException(failed, failure.get());
        }
    }
}
