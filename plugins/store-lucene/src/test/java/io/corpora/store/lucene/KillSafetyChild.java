package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The child JVM of {@link KillSafetyTest}: writes numbered batches into a store forever and prints
 * {@code committed <n>} after each upsert returns (i.e. once it is acknowledged durable). Arguments:
 * {@code <directory> [writers] [options] [deleteEvery]}. With {@code W > 1} writers, W threads write at once (their
 * translog fsyncs are grouped) and each batch is reported by its own writer when its upsert returns. {@code options} are
 * store options as {@code key=value,key=value} ({@code -} for none). With {@code deleteEvery N > 0}, a writer deletes
 * every N-th batch right after writing it and prints {@code deleted <n>} once the delete returns. The child exits when
 * its stdin closes, so it never outlives the test; the test kills it with {@code destroyForcibly()} (SIGKILL) while it
 * writes.
 */
public final class KillSafetyChild {

    static final Namespace NAMESPACE = Namespace.of("killsafety");
    static final int BATCH = 200;
    static final int DIMENSION = 16;

    private KillSafetyChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            try (InputStream in = System.in) {
                while (in.read() >= 0) {
                    // parent alive
                }
            } catch (IOException ignored) {
                // parent gone
            }
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();

        int writers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        Map<String, String> options = args.length > 2 ? options(args[2]) : Map.of();
        int deleteEvery = args.length > 3 ? Integer.parseInt(args[3]) : 0;
        LuceneVectorStore store = StoreFixtures.open(Path.of(args[0]), options);
        long next = nextBatch(store);
        System.out.println("ready " + next);
        System.out.flush();
        java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong(next);
        Runnable writer = () -> {
            while (true) {
                long batch = batches.getAndIncrement();
                store.upsert(NAMESPACE, batch(batch));
                report("committed " + batch);
                if (deleteEvery > 0 && batch % deleteEvery == 0) {
                    store.deleteDocument(NAMESPACE, documentId(batch));
                    report("deleted " + batch);
                }
            }
        };
        for (int w = 1; w < writers; w++) {
            new Thread(writer, "writer-" + w).start();
        }
        writer.run();
    }

    private static void report(String line) {
        synchronized (System.out) {
            System.out.println(line);
            System.out.flush();
        }
    }

    /** One past the highest batch present (batches may be missing: deleted, or lost in flight by another writer). */
    private static long nextBatch(LuceneVectorStore store) {
        long next = 0;
        for (io.corpora.spi.Chunk chunk : allChunks(store)) {
            next = Math.max(next, ((Number) chunk.metadata().get("batch")).longValue() + 1);
        }
        return next;
    }

    static List<io.corpora.spi.Chunk> allChunks(LuceneVectorStore store) {
        List<io.corpora.spi.Chunk> all = new ArrayList<>();
        String after = null;
        do {
            io.corpora.spi.store.ChunkPage page = store.list(NAMESPACE, after, LuceneVectorStore.MAX_PAGE);
            all.addAll(page.chunks());
            after = page.nextAfterId();
        } while (after != null);
        return all;
    }

    private static Map<String, String> options(String spec) {
        Map<String, String> options = new java.util.HashMap<>();
        if (!spec.equals("-")) {
            for (String option : spec.split(",")) {
                String[] pair = option.split("=", 2);
                options.put(pair[0], pair[1]);
            }
        }
        return options;
    }

    static String documentId(long batch) {
        return "batch-" + batch;
    }

    static String text(long batch, int index) {
        return "batch " + batch + " chunk " + index + " of the kill safety corpus";
    }

    static List<EmbeddedChunk> batch(long batch) {
        Random random = new Random(batch);
        List<EmbeddedChunk> chunks = new ArrayList<>(BATCH);
        for (int i = 0; i < BATCH; i++) {
            float[] vector = new float[DIMENSION];
            for (int d = 0; d < DIMENSION; d++) {
                vector[d] = random.nextFloat() - 0.5f;
            }
            Chunk chunk = new Chunk(documentId(batch) + "#" + i, documentId(batch), i, text(batch, i), List.of(), Map.of("batch", batch));
            chunks.add(new EmbeddedChunk(chunk, vector));
        }
        return chunks;
    }
}
