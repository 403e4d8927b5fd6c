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
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.lucene.index.CheckIndex;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kill -9} while writing: a child JVM ({@link KillSafetyChild}) writes batches in a loop and is killed with
 * {@code destroyForcibly()} mid-write. Afterwards the store reopens (replaying its translog after the last Lucene
 * commit), the index passes Lucene's {@link CheckIndex}, every batch the child reported acknowledged is there whole, no
 * batch is there in part, nothing beyond the writers' reach was added, and the store searches and writes again. The
 * rounds vary when Lucene commits happen (only at reopen; every 20 ms; every 64 KB of log) so the kill lands with
 * acknowledged writes only in the log, and with some in a commit and the rest in the log.
 */
class KillSafetyTest {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @TempDir
    Path temp;

    @Test
    void everyAcknowledgedWriteSurvivesKillDashNineMidWrite() throws Exception {
        Path data = temp.resolve("data");
        List<String> roundOptions = List.of("-", "translog.flushInterval=20ms", "translog.flushBytes=65536");
        long committedSoFar = 0;
        for (int round = 0; round < roundOptions.size(); round++) {
            Reported reported = runChildAndKill(data, 3 + round * 2, round, 1, roundOptions.get(round), 0);
            long lastReported = Collections.max(reported.committed());
            assertTrue(lastReported + 1 >= committedSoFar, "the child resumed behind what was acknowledged");
            committedSoFar = verifyIntactAfterKill(data, lastReported);
        }
    }

    /**
     * Grouped fsyncs under {@code kill -9}: four writers at once share translog fsyncs while background commits run every
     * 20 ms; after the kill every batch any writer reported (its upsert returned) is there whole, and no batch in part.
     */
    @Test
    void everyAcknowledgedWriteOfConcurrentWritersSurvivesKillDashNine() throws Exception {
        Path data = temp.resolve("concurrent");
        Reported reported = runChildAndKill(data, 12, 0, 4, "translog.flushInterval=20ms", 0);
        verifyBatches(data, reported, 4, 0);
    }

    /**
     * Deletes commit before they return and are not logged; upserts after them are. Four writers, every third batch
     * deleted right after it was written: after the kill and the replay, a batch whose delete returned is gone, a batch
     * acknowledged and never deleted is there whole.
     */
    @Test
    void deletesInterleavedWithUpsertsReplayToTheAcknowledgedState() throws Exception {
        Path data = temp.resolve("deletes");
        Reported reported = runChildAndKill(data, 15, 0, 4, "-", 3);
        assertFalse(reported.deleted().isEmpty(), "the child deleted nothing before the kill");
        verifyBatches(data, reported, 4, 3);
    }

    /**
     * {@code commitInterval > 0}: a write returns once logged, before its fsync. A process crash loses none of it (the
     * operating system holds what was written); only a power loss could lose up to the interval.
     */
    @Test
    void withBackgroundDurabilityAProcessCrashLosesNoReturnedWrite() throws Exception {
        Path data = temp.resolve("async");
        Reported reported = runChildAndKill(data, 12, 0, 2, "commitInterval=1h", 0);
        verifyBatches(data, reported, 2, 0);
    }

    private record Reported(List<Long> committed, Set<Long> deleted) {}

    /** Starts the writer(s), waits until {@code batches} acknowledgements were reported, kills it; returns what it reported. */
    private Reported runChildAndKill(Path data, int batches, int round, int writers, String options, int deleteEvery) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path log = temp.resolve("child-" + data.getFileName() + "-" + round + ".log");
        Process child = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), KillSafetyChild.class.getName(), data.toString(),
                String.valueOf(writers), options, String.valueOf(deleteEvery))
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
            List<Long> committed = new ArrayList<>();
            Set<Long> deleted = new TreeSet<>();
            while (committed.size() < batches) {
                record(await(lines, child, log, ""), committed, deleted);
            }
            // The child spends nearly all its time inside upsert (indexing, logging, fsync), so this lands mid-write.
            child.destroyForcibly();
            assertTrue(child.waitFor(DEADLINE.toSeconds(), TimeUnit.SECONDS), "the killed child did not exit");
            assertEquals(137, child.exitValue(), "the child must die by SIGKILL, not exit cleanly");
            pump.join(DEADLINE.toMillis());
            for (String line; (line = lines.poll()) != null; ) {
                record(line, committed, deleted);
            }
            return new Reported(committed, deleted);
        } finally {
            child.destroyForcibly();
            child.getOutputStream().close(); // closing stdin makes any survivor halt itself
        }
    }

    private static void record(String line, List<Long> committed, Set<Long> deleted) {
        if (line.startsWith("committed ")) {
            committed.add(Long.parseLong(line.substring("committed ".length())));
        } else if (line.startsWith("deleted ")) {
            deleted.add(Long.parseLong(line.substring("deleted ".length())));
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

    /** Reopens the store (replaying the log and committing), closes it, and checks the index Lucene committed. */
    private static void reopenAndCheckIndex(Path data) throws IOException {
        Path indexPath;
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            indexPath = store.pathOf(KillSafetyChild.NAMESPACE);
            store.count(KillSafetyChild.NAMESPACE, MetadataFilter.all()); // opens the index: replay and commit
        }
        try (FSDirectory directory = FSDirectory.open(indexPath); CheckIndex check = new CheckIndex(directory)) {
            assertTrue(check.checkIndex().clean, "CheckIndex found problems after kill -9 and replay");
        }
        assertEquals(List.of(), Translog.generations(indexPath), "a clean close leaves no translog behind");
    }

    /** One writer: the batches present are exactly 0..n-1 with n the last reported plus at most the one in flight. */
    private static long verifyIntactAfterKill(Path data, long lastReported) throws Exception {
        reopenAndCheckIndex(data);
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            long count = store.count(KillSafetyChild.NAMESPACE, MetadataFilter.all());
            assertEquals(0, count % KillSafetyChild.BATCH, "a half-written batch is visible: " + count + " chunks");
            long batches = count / KillSafetyChild.BATCH;
            assertTrue(batches >= lastReported + 1, "batch " + lastReported + " was acknowledged but only " + batches + " batches survived");
            assertTrue(batches <= lastReported + 2, "more batches than written: " + batches);
            for (long b = 0; b < batches; b++) {
                assertEquals(KillSafetyChild.BATCH, store.count(KillSafetyChild.NAMESPACE, MetadataFilter.eq("batch", b)), "batch " + b);
            }
            List<Chunk> last = store.documentChunks(KillSafetyChild.NAMESPACE, KillSafetyChild.documentId(batches - 1));
            assertEquals(KillSafetyChild.BATCH, last.size());
            for (Chunk chunk : last) {
                assertEquals(KillSafetyChild.text(batches - 1, chunk.index()), chunk.text());
            }
            assertSearches(store, 0);
            return batches;
        }
    }

    /**
     * Several writers: every batch present is whole and was started by a writer; every acknowledged batch is present
     * unless its delete may have run (reported, or in flight); every batch whose delete returned is gone.
     */
    private static void verifyBatches(Path data, Reported reported, int writers, int deleteEvery) throws Exception {
        reopenAndCheckIndex(data);
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            Map<Long, Integer> chunksByBatch = new TreeMap<>();
            for (Chunk chunk : KillSafetyChild.allChunks(store)) {
                chunksByBatch.merge(((Number) chunk.metadata().get("batch")).longValue(), 1, Integer::sum);
            }
            long max = Collections.max(reported.committed());
            chunksByBatch.forEach((batch, chunks) -> {
                assertEquals(KillSafetyChild.BATCH, chunks, "batch " + batch + " is there in part");
                assertTrue(batch <= max + writers, "batch " + batch + " is beyond the writers' reach (last acknowledged " + max + ")");
            });
            for (long batch : reported.committed()) {
                boolean mayBeDeleted = deleteEvery > 0 && batch % deleteEvery == 0;
                if (reported.deleted().contains(batch)) {
                    assertFalse(chunksByBatch.containsKey(batch), "batch " + batch + " was deleted (acknowledged) but came back");
                } else if (!mayBeDeleted) {
                    assertTrue(chunksByBatch.containsKey(batch), "batch " + batch + " was acknowledged but did not survive");
                }
            }
            long survivor = chunksByBatch.keySet().iterator().next();
            assertSearches(store, survivor);
        }
    }

    private static void assertSearches(LuceneVectorStore store, long batch) {
        float[] probe = KillSafetyChild.batch(batch).get(7).embedding();
        List<ScoredChunk> hits = store.search(KillSafetyChild.NAMESPACE, SearchRequest.vector(probe, 1, MetadataFilter.all(), null, null));
        assertEquals(KillSafetyChild.documentId(batch) + "#7", hits.get(0).chunk().id(), "the reopened index searches");
        assertFalse(store.search(KillSafetyChild.NAMESPACE, SearchRequest.keyword("kill safety", 3, MetadataFilter.all(), null, null)).isEmpty());
    }
}
