package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} while writing: a child JVM writes and commits batches in a loop and is killed with
 * {@code destroyForcibly()} mid-write, three times over the same directory. After each kill the index passes
 * Lucene's {@link CheckIndex}, every batch the child reported committed is there whole, at most the one batch in
 * flight was added (whole), and the store reopens, searches and writes again.
 */
class KillSafetyTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int ROUNDS = 3;

    @TempDir
    Path temp;

    @Test
    void theLastCommitSurvivesKillDashNineMidWrite() throws Exception {
        Path data = temp.resolve("data");
        long committedSoFar = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long lastReported = java.util.Collections.max(runChildAndKill(data, 3 + round * 2, round, 1));
            assertTrue(lastReported + 1 >= committedSoFar, "the child resumed behind what was committed");
            committedSoFar = verifyIntactAfterKill(data, lastReported);
        }
    }

    /**
     * Group commit under {@code kill -9}: four writers at once share commits; after the kill every batch any writer
     * reported (its upsert returned) is there whole, and no batch is there in part.
     */
    @Test
    void everyAcknowledgedWriteOfConcurrentWritersSurvivesKillDashNine() throws Exception {
        Path data = temp.resolve("concurrent");
        java.util.List<Long> reported = runChildAndKill(data, 12, 0, 4);
        Path indexPath;
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            indexPath = store.pathOf(KillSafetyChild.NAMESPACE);
        }
        try (FSDirectory directory = FSDirectory.open(indexPath); CheckIndex check = new CheckIndex(directory)) {
            assertTrue(check.checkIndex().clean, "CheckIndex found problems after kill -9");
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            long count = store.count(KillSafetyChild.NAMESPACE, MetadataFilter.all());
            assertEquals(0, count % KillSafetyChild.BATCH, "a half-written batch is visible: " + count + " chunks");
            long max = java.util.Collections.max(reported);
            long present = 0;
            for (long b = 0; b <= max + 8; b++) { // at most one batch in flight per writer beyond the last reported
                long chunks = store.count(KillSafetyChild.NAMESPACE, MetadataFilter.eq("batch", b));
                assertTrue(chunks == 0 || chunks == KillSafetyChild.BATCH, "batch " + b + " is there in part: " + chunks);
                if (reported.contains(b)) {
                    assertEquals(KillSafetyChild.BATCH, chunks, "batch " + b + " was acknowledged but did not survive");
                }
                present += chunks / KillSafetyChild.BATCH;
            }
            assertEquals(count / KillSafetyChild.BATCH, present, "batches beyond the writers' reach");
        }
    }

    /** Starts the writer(s), waits until {@code batches} more commits were reported, kills it; returns the reported batches. */
    private java.util.List<Long> runChildAndKill(Path data, int batches, int round, int writers) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = temp.resolve("child-" + round + ".log");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KillSafetyChild.class.getName(), data.toString(),
                String.valueOf(writers))
                .redirectError(log.toFile())
                .start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (IOException ignored) {
                // the child was killed
            }
        });
        pump.setDaemon(true);
        pump.start();
        try {
            await(lines, child, log, "ready");
            java.util.List<Long> reported = new java.util.ArrayList<>();
            while (reported.size() < batches) {
                String line = await(lines, child, log, "committed");
                reported.add(Long.parseLong(line.substring("committed ".length())));
            }
            // The child spends nearly all its time inside upsert (indexing, flushing, fsync), so this lands mid-write.
            child.destroyForcibly();
            assertTrue(child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the killed child did not exit");
            assertEquals(137, child.exitValue(), "the child must die by SIGKILL, not exit cleanly");
            pump.join(DEADLINE.toMillis());
            for (String line; (line = lines.poll()) != null; ) {
                if (line.startsWith("committed ")) {
                    reported.add(Long.parseLong(line.substring("committed ".length())));
                }
            }
            return reported;
        } finally {
            child.destroyForcibly();
            child.getOutputStream().close(); // closing stdin makes any survivor halt itself
        }
    }

    private static String await(BlockingQueue<String> lines, Process child, Path log, String prefix) throws Exception {
        Instant deadline = Instant.now().plus(DEADLINE);
        while (Instant.now().isBefore(deadline)) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null && line.startsWith(prefix)) {
                return line;
            }
            if (line == null && !child.isAlive() && lines.isEmpty()) {
                fail("the child exited with " + child.exitValue() + " before '" + prefix + "':\n" + Files.readString(log));
            }
        }
        fail("no '" + prefix + "' from the child within " + DEADLINE + ":\n" + Files.readString(log));
        return null;
    }

    /** Checks the index on disk and through the store; returns how many batches it holds. */
    private long verifyIntactAfterKill(Path data, long lastReported) throws Exception {
        Path indexPath;
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            indexPath = store.pathOf(KillSafetyChild.NAMESPACE);
        }
        try (FSDirectory directory = FSDirectory.open(indexPath); CheckIndex check = new CheckIndex(directory)) {
            CheckIndex.Status status = check.checkIndex();
            assertTrue(status.clean, "CheckIndex found problems after kill -9");
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            long count = store.count(KillSafetyChild.NAMESPACE, MetadataFilter.all());
            assertEquals(0, count % KillSafetyChild.BATCH, "a half-written batch is visible: " + count + " chunks");
            long batches = count / KillSafetyChild.BATCH;
            assertTrue(batches >= lastReported + 1, "batch " + lastReported + " was reported committed but only " + batches + " batches survived");
            assertTrue(batches <= lastReported + 2, "more batches than written: " + batches);
            for (long b = 0; b < batches; b++) {
                assertEquals(KillSafetyChild.BATCH, store.count(KillSafetyChild.NAMESPACE, MetadataFilter.eq("batch", b)), "batch " + b);
            }
            List<Chunk> last = store.documentChunks(KillSafetyChild.NAMESPACE, KillSafetyChild.documentId(batches - 1));
            assertEquals(KillSafetyChild.BATCH, last.size());
            for (Chunk chunk : last) {
                assertEquals(KillSafetyChild.text(batches - 1, chunk.index()), chunk.text());
            }
            float[] probe = KillSafetyChild.batch(0).get(7).embedding();
            List<ScoredChunk> hits = store.search(KillSafetyChild.NAMESPACE, SearchRequest.vector(probe, 1, MetadataFilter.all(), null, null));
            assertEquals("batch-0#7", hits.get(0).chunk().id(), "the reopened index searches");
            assertFalse(store.search(KillSafetyChild.NAMESPACE, SearchRequest.keyword("kill safety", 3, MetadataFilter.all(), null, null)).isEmpty());
            return batches;
        }
    }
}
