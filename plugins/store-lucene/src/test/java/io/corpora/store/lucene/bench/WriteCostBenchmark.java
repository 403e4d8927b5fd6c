package io.corpora.store.lucene.bench;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorMath;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.store.lucene.LuceneVectorStoreProvider;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The store's write cost alone: {@code count} single-chunk upserts (a ~1,200-character abstract, the pipeline's stamped
 * metadata, a 384-d unit vector) into one namespace from {@code writers} threads, each returning only when durable, as
 * the ingest pipeline calls it; then the store is closed. Prints wall ms per write and the whole process's CPU ms per
 * write (background flushes, merges and commits run on other threads, so the calling thread's CPU would hide them).
 * Not a unit test. Arguments: {@code [count] [writers] [option=value ...]} (store options), default 500 1; the option
 * {@code pace=<ms>} is the harness's own: each writer waits that long before each write, as an ingest writer spends its
 * time embedding, so background commits and merges are paid at a realistic write rate.
 *
 * <pre>java -cp "plugins/store-lucene/target/test-classes:plugins/store-lucene/target/classes:$(cat plugins/store-lucene/target/bench.classpath)" \
 *     io.corpora.store.lucene.bench.WriteCostBenchmark 500 1</pre>
 */
public final class WriteCostBenchmark {

    private static final Namespace NS = Namespace.of("writecost");
    private static final int DIMENSION = 384;
    private static final int WARMUP = 1000;

    private WriteCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        int count = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int writers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Map<String, String> options = new HashMap<>();
        for (int i = 2; i < args.length; i++) {
            String[] option = args[i].split("=", 2);
            options.put(option[0], option[1]);
        }
        long pace = Long.parseLong(options.getOrDefault("pace", "0"));
        options.remove("pace");
        List<EmbeddedChunk> chunks = chunks(WARMUP + count, new Random(42));
        Path dir = Files.createTempDirectory("corpora-write-cost");
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), options);
        VectorStore store = provider.create(PluginContext.of(dir, "bench"), config);
        write(store, chunks.subList(0, WARMUP), writers, 0); // JIT, first segments; not measured
        long cpu = os.getProcessCpuTime();
        long start = System.nanoTime();
        write(store, chunks.subList(WARMUP, chunks.size()), writers, pace);
        store.close(); // measured: a close commits what background commits have not yet
        double wallMs = (System.nanoTime() - start) / 1e6;
        double cpuMs = (os.getProcessCpuTime() - cpu) / 1e6;
        try (VectorStore reopened = provider.create(PluginContext.of(dir, "bench"), config)) {
            long stored = reopened.count(NS, MetadataFilter.all());
            if (stored != chunks.size()) {
                throw new IllegalStateException("stored " + stored + " of " + chunks.size());
            }
        }
        System.out.printf(java.util.Locale.ROOT, "result writes=%d writers=%d pace_ms=%d options=%s wall_ms_per_write=%.2f cpu_ms_per_write=%.2f writes_per_s=%.1f%n",
                count, writers, pace, options, wallMs / count, cpuMs / count, count / (wallMs / 1000));
    }

    private static void write(VectorStore store, List<EmbeddedChunk> chunks, int writers, long pace) throws InterruptedException {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Thread thread = new Thread(() -> {
                try {
                    for (int i; (i = next.getAndIncrement()) < chunks.size(); ) {
                        Thread.sleep(pace);
                        store.upsert(NS, List.of(chunks.get(i)));
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("a write failed", failure.get());
        }
    }

    /** One chunk per document with the metadata the pipeline stamps, ~1,200 characters of words, a random unit vector. */
    private static List<EmbeddedChunk> chunks(int count, Random random) {
        String[] words = ("cell protein expression tumour patients mice receptor signalling pathway clinical trial dose response "
                + "gene mutation risk cohort analysis increased reduced binding activity levels treatment").split(" ");
        List<EmbeddedChunk> chunks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 1200) {
                text.append(words[random.nextInt(words.length)]).append(' ');
            }
            float[] vector = new float[DIMENSION];
            for (int d = 0; d < DIMENSION; d++) {
                vector[d] = (float) random.nextGaussian();
            }
            String documentId = "doc-" + i;
            Map<String, Object> metadata = Map.of(ReservedKeys.TENANT, "writecost", ReservedKeys.PARTITION, "_default",
                    ReservedKeys.DOCUMENT, documentId, ReservedKeys.VERSION, 1L, ReservedKeys.EMBEDDER, "onnx:bge-small-en-v1.5:384:abc",
                    "source", "bench", "title", "Document " + i);
            chunks.add(new EmbeddedChunk(new Chunk(documentId + "#0", documentId, 0, text.toString(), List.of(), metadata),
                    VectorMath.l2Normalize(vector)));
        }
        return chunks;
    }
}
