package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.Poll;
import io.corpora.testkit.TestVectors;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A namespace whose writes pause is merged down to {@code merge.idleSegments} segments when a tenth of its documents lie
 * outside its largest ones: what an ingest leaves (here eight segments below the merge floor, which Lucene's tiered
 * policy keeps as they are) is searched over one graph once merged, nothing is lost; a trickle write is left alone, and a
 * tenth more documents merge again.
 */
class IdleMergeTest {

    private static final Namespace NS = Namespace.of("acme");
    private static final int SEGMENTS = 8;
    private static final int DOCUMENTS_PER_SEGMENT = 50;
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Map<String, String> OPTIONS = Map.of("merge.idleAfter", "1s", "translog.flushInterval", "50ms");

    @TempDir
    Path data;

    @Test
    void aPauseInWritesMergesTheNamespaceIntoOneSegmentAndLosesNothing() throws Exception {
        TestVectors vectors = new TestVectors(5, 8);
        float[] first = vectors.next();
        // Eight more segments, the first the largest, committed with merging off.
        int[] sizes = new int[SEGMENTS];
        Arrays.fill(sizes, DOCUMENTS_PER_SEGMENT);
        sizes[0] = 4 * DOCUMENTS_PER_SEGMENT;
        Path path = StoreFixtures.withRawSegments(data, NS, chunk("first", first), sizes, id -> chunk(id, vectors.next()));
        assertEquals(SEGMENTS + 1, StoreFixtures.committedSegments(path));
        int documents = 1 + (SEGMENTS + 3) * DOCUMENTS_PER_SEGMENT;

        try (LuceneVectorStore store = StoreFixtures.open(data, OPTIONS)) {
            assertEquals(documents, store.count(NS, MetadataFilter.all())); // opens it; no write follows
            Poll.until("the idle namespace merged into one segment, committed and searched", DEADLINE,
                    () -> StoreFixtures.committedSegments(path) == 1 && store.searchedSegments(NS) == 1);
            assertEquals(documents, store.count(NS, MetadataFilter.all()));
            assertEquals("first", store.search(NS, SearchRequest.vector(first, 1, MetadataFilter.all(), null, null)).get(0).chunk().id());

            // Enough more documents to be a tenth of the index, then a pause: merged into one again.
            List<EmbeddedChunk> more = new ArrayList<>();
            for (int d = 0; d < documents / 9 + 1; d++) {
                more.add(chunk("more-" + d, vectors.next()));
            }
            store.upsert(NS, more);
            Poll.until("the new tenth merged in", DEADLINE, () -> StoreFixtures.committedSegments(path) == 1
                    && store.searchedSegments(NS) == 1 && store.count(NS, MetadataFilter.all()) == documents + more.size());
        }
    }

    /**
     * Namespaces whose writes pause together merge one after the other (each would otherwise take a merge thread, and
     * together every core, beside the requests of other tenants), and each ends in one segment.
     */
    @Test
    void namespacesPausingTogetherMergeOneAtATime() throws Exception {
        TestVectors vectors = new TestVectors(11, 32);
        Namespace other = Namespace.of("globex");
        int[] sizes = new int[4];
        Arrays.fill(sizes, 1_000);
        Path first = StoreFixtures.withRawSegments(data, NS, chunk("first", vectors.next()), sizes, id -> chunk(id, vectors.next()));
        Path second = StoreFixtures.withRawSegments(data, other, chunk("first", vectors.next()), sizes, id -> chunk(id, vectors.next()));

        try (LuceneVectorStore store = StoreFixtures.open(data, OPTIONS)) {
            store.count(NS, MetadataFilter.all()); // opens both: their pauses begin together
            store.count(other, MetadataFilter.all());
            boolean[] seen = new boolean[2];
            Poll.until("both namespaces merged into one segment, one at a time", DEADLINE, () -> {
                boolean merging = store.merging(NS);
                boolean otherMerging = store.merging(other);
                assertFalse(merging && otherMerging, "both namespaces merging at once");
                seen[0] |= merging;
                seen[1] |= otherMerging;
                return StoreFixtures.committedSegments(first) == 1 && StoreFixtures.committedSegments(second) == 1;
            });
            assertTrue(seen[0] && seen[1], "each merge was seen running");
            assertEquals(1 + 4_000, store.count(other, MetadataFilter.all()));
        }
    }

    /** The decision alone: a trickle is left to the tiered policy, so a tenant writing one chunk at a time never rewrites its index. */
    @Test
    void onlyATenthOfTheDocumentsOutsideTheLargestSegmentsIsWorthAMerge() {
        assertTrue(NamespaceIndex.worthSettling(new int[] {60, 30, 10}, 100, 1, 200_000));
        assertFalse(NamespaceIndex.worthSettling(new int[] {100, 5}, 105, 1, 200_000), "5 of 105 outside the largest: a trickle");
        assertTrue(NamespaceIndex.worthSettling(new int[] {5, 100, 7}, 112, 1, 200_000), "12 of 112, whatever the order");
        assertFalse(NamespaceIndex.worthSettling(new int[] {60, 30, 10}, 100, 3, 200_000), "no more segments than the bound");
        assertFalse(NamespaceIndex.worthSettling(new int[] {50, 50, 1, 1}, 102, 2, 200_000), "2 of 102 outside the largest two");
        assertTrue(NamespaceIndex.worthSettling(new int[] {50, 50, 1, 1}, 102, 1, 200_000));
        assertFalse(NamespaceIndex.worthSettling(new int[] {150_000, 100_000}, 250_000, 1, 200_000), "too large to rewrite while idle");
    }

    private static EmbeddedChunk chunk(String id, float[] vector) {
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, id + " lodging harbour market", List.of(), Map.of("id", id)), vector);
    }
}
