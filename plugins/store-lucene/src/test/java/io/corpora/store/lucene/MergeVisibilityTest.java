package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.TestVectors;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A merge that finishes after a namespace's last write is committed and searched: reads reopen the searcher only for
 * writes, and background commits used to run only for writes, so such a namespace kept being searched over the
 * segments the merge had replaced, and its last commit kept them on disk.
 */
class MergeVisibilityTest {

    private static final Namespace NS = Namespace.of("acme");
    private static final int SEGMENTS = 30;
    private static final int DOCUMENTS_PER_SEGMENT = 100;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration WAKE_UP = Duration.ofMillis(100);
    /** A floor far below the segments written, so their merges are natural ones a commit does not wait for. */
    private static final Map<String, String> OPTIONS = Map.of("merge.floorSegmentMb", "0.1", "translog.flushInterval", "10ms");

    @TempDir
    Path data;

    @Test
    void mergesStartedAfterTheLastWriteAreCommittedAndSearched() throws Exception {
        TestVectors vectors = new TestVectors(11, 8);
        float[] first = vectors.next();
        // Thirty segments well above the floor, committed with merging off (as a namespace written under a smaller
        // floor keeps them).
        int[] sizes = new int[SEGMENTS];
        Arrays.fill(sizes, DOCUMENTS_PER_SEGMENT);
        Path path = StoreFixtures.withRawSegments(data, NS, chunk("first", first), sizes, id -> chunk(id, vectors.next()));
        assertEquals(SEGMENTS + 1, StoreFixtures.committedSegments(path));

        try (LuceneVectorStore store = StoreFixtures.open(data, OPTIONS);
             WatchService commits = path.getFileSystem().newWatchService()) {
            path.register(commits, StandardWatchEventKinds.ENTRY_CREATE); // every commit creates a segments_N file
            // The first read opens the namespace: its searcher's reader starts the merges, and no write follows them.
            Instant deadline = Instant.now().plus(DEADLINE);
            int committed = StoreFixtures.committedSegments(path);
            int searched = store.searchedSegments(NS);
            // Until the merges reached the last commit and the searcher reads what was committed. Without the fix there
            // is no commit after the raw writer's and the searcher stays on the segments it opened over. Woken by each
            // new commit file; the short bound covers the searcher reopened after it.
            while (!(committed < SEGMENTS && committed == searched) && Instant.now().isBefore(deadline)) {
                WatchKey created = commits.poll(Math.min(WAKE_UP.toMillis(), Duration.between(Instant.now(), deadline).toMillis()),
                        TimeUnit.MILLISECONDS);
                if (created != null) {
                    created.pollEvents();
                    created.reset();
                }
                committed = StoreFixtures.committedSegments(path);
                searched = store.searchedSegments(NS);
            }
            assertTrue(committed < SEGMENTS, "the merges were never committed: the last commit holds " + committed + " segments");
            assertEquals(committed, searched, "the searcher does not read the committed segments");
            assertEquals(SEGMENTS * DOCUMENTS_PER_SEGMENT + 1, store.count(NS, MetadataFilter.all()));
            assertEquals("first", store.search(NS, SearchRequest.vector(first, 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
        }
    }


    /** About 2 KB of stored text each, so a segment of a hundred is well above the floor. */
    private static EmbeddedChunk chunk(String id, float[] vector) {
        String text = (id + " lodging harbour market ").repeat(80);
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, text, List.of(), Map.of("id", id)), vector);
    }
}
