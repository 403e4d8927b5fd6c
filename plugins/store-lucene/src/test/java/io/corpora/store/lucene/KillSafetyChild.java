package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
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
 * {@code committed <n>} after each upsert returns (i.e. after its commit). With a second argument {@code W > 1}, W
 * threads write at once (their commits are grouped) and each batch is reported by its own writer when its upsert returns. It exits when its stdin closes, so it
 * never outlives the test; the test kills it with {@code destroyForcibly()} (SIGKILL) while it writes.
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

        LuceneVectorStore store = StoreFixtures.open(Path.of(args[0]), Map.of());
        long next = store.count(NAMESPACE, MetadataFilter.all()) / BATCH;
        System.out.println("ready " + next);
        System.out.flush();
        int writers = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        java.util.concurrent.atomic.AtomicLong batches = new java.util.concurrent.atomic.AtomicLong(next);
        Runnable writer = () -> {
            while (true) {
                long batch = batches.getAndIncrement();
                store.upsert(NAMESPACE, batch(batch));
                synchronized (System.out) {
                    System.out.println("committed " + batch);
                    System.out.flush();
                }
            }
        };
        for (int w = 1; w < writers; w++) {
            new Thread(writer, "writer-" + w).start();
        }
        writer.run();
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
