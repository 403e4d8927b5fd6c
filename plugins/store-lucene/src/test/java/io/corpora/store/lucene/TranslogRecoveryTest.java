package io.corpora.store.lucene;

import static io.corpora.testkit.TestFiles.copyTree;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.Poll;
import io.corpora.testkit.TestVectors;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The translog on real files: what a crash leaves (a copy of a namespace directory taken while its store is open and
 * nothing is closed or committed) replays to exactly the acknowledged writes; a torn or corrupt tail is ignored; commits
 * trim the log; a close leaves none; a write that fails mid-batch is rolled back and never replayed.
 */
class TranslogRecoveryTest {

    private static final Namespace NS = Namespace.of("acme", "eu");
    /** No background commit during a test unless it asks for one: the crash images then hold the log's records only. */
    private static final Map<String, String> NO_BACKGROUND_COMMIT = Map.of("translog.flushInterval", "1h");

    @TempDir
    Path temp;

    private final TestVectors vectors = new TestVectors(7, 8);
    private int crashes;

    private EmbeddedChunk chunk(String id, String text) {
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, text, List.of("Section"), Map.of("id", id, "n", 3L)), vectors.next());
    }

    @Test
    void aStoreThatWasNeverClosedReplaysExactlyItsAcknowledgedWritesDeletesIncluded() throws Exception {
        Path data = temp.resolve("data");
        EmbeddedChunk a = chunk("a", "alpha");
        EmbeddedChunk b2 = chunk("b", "beta, second version");
        EmbeddedChunk d = chunk("d", "delta");
        Path image;
        try (LuceneVectorStore store = StoreFixtures.open(data, NO_BACKGROUND_COMMIT)) {
            store.upsert(NS, List.of(a));
            store.upsert(NS, List.of(chunk("b", "beta"), chunk("c", "gamma")));
            assertEquals(1, store.deleteChunks(NS, List.of("c")), "a delete commits before it returns");
            store.upsert(NS, List.of(b2));
            store.upsert(NS, List.of(d));
            image = crashImage(store);
        }
        Path index = LuceneVectorStore.pathOf(image, NS);
        assertEquals(2, committedDocuments(index), "the last commit (the delete's) holds a and b; b's second version and d are in the log only");

        try (LuceneVectorStore recovered = StoreFixtures.open(image, Map.of())) {
            assertEquals(List.of(a, b2, d).stream().map(EmbeddedChunk::chunk).toList(), recovered.list(NS, null, 10).chunks());
            assertEquals("d", recovered.search(NS, SearchRequest.vector(d.embedding(), 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
            assertEquals("b", recovered.search(NS, SearchRequest.keyword("second version", 1, MetadataFilter.all(), null, null)).get(0).chunk().id(),
                    "the replayed index text is searchable");
            assertArrayEquals(d.embedding(), recovered.storedVectors(NS, List.of("d")).orElseThrow().get("d"), "vectors replay bit for bit");
        }
        assertEquals(3, committedDocuments(index), "the replay was committed");
        assertEquals(List.of(), Translog.generations(index), "and the close left no log");
    }

    @Test
    void aReplayedChunkIsIndexedAsItsUpsertIndexedItTitleFieldIncluded() throws Exception {
        Map<String, String> titles = Map.of("translog.flushInterval", "1h", "keyword.titleBoost", "1");
        EmbeddedChunk titled = new EmbeddedChunk(new Chunk("t", "doc-t", 0, "an abstract about winds", List.of(),
                Map.of("title", "Monsoon")), vectors.next());
        Path image;
        try (LuceneVectorStore store = StoreFixtures.open(temp.resolve("data"), titles)) {
            store.upsert(NS, List.of(titled));
            image = crashImage(store);
        }
        Path index = LuceneVectorStore.pathOf(image, NS);
        assertEquals(0, committedDocuments(index), "the chunk is in the log only");
        try (LuceneVectorStore recovered = StoreFixtures.open(image, titles)) {
            assertEquals(List.of("t"), ids(recovered));
        }
        try (DirectoryReader reader = DirectoryReader.open(FSDirectory.open(index))) {
            assertEquals(1, reader.getDocCount(ChunkDocuments.TITLE), "the replay wrote the title field, as the upsert did");
        }
    }

    @Test
    void aTornOrCorruptLastRecordIsIgnoredAndWritingResumesInANewGeneration() throws Exception {
        Path data = temp.resolve("data");
        Path image;
        try (LuceneVectorStore store = StoreFixtures.open(data, NO_BACKGROUND_COMMIT)) {
            store.upsert(NS, List.of(chunk("a", "alpha")));
            store.upsert(NS, List.of(chunk("b", "beta")));
            store.upsert(NS, List.of(chunk("c", "gamma")));
            image = crashImage(store);
        }
        Path torn = copyTree(image, temp.resolve("torn"));
        Path log = onlyGeneration(torn);
        try (RandomAccessFile file = new RandomAccessFile(log.toFile(), "rw")) {
            file.setLength(file.length() - 10); // a crash mid-append of c
        }
        Path corrupt = copyTree(image, temp.resolve("corrupt"));
        try (RandomAccessFile file = new RandomAccessFile(onlyGeneration(corrupt).toFile(), "rw")) {
            file.seek(file.length() - 20);
            int b = file.read();
            file.seek(file.length() - 20);
            file.write(b ^ 0xff); // one flipped byte inside c's record
        }
        for (Path damaged : List.of(torn, corrupt)) {
            Path next;
            try (LuceneVectorStore store = StoreFixtures.open(damaged, NO_BACKGROUND_COMMIT)) {
                assertEquals(List.of("a", "b"), ids(store), damaged.getFileName() + ": everything before the damaged record");
                store.upsert(NS, List.of(chunk("d", "delta")));
                next = crashImage(store);
            }
            try (LuceneVectorStore store = StoreFixtures.open(next, Map.of())) {
                assertEquals(List.of("a", "b", "d"), ids(store), damaged.getFileName() + ": d went to a new generation, not after the damage");
            }
        }
    }

    @Test
    void backgroundCommitsRecordWhereReplayStartsAndTrimTheLog() throws Exception {
        Path data = temp.resolve("data");
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("translog.flushBytes", "65536", "translog.flushInterval", "1h"))) {
            List<EmbeddedChunk> written = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                EmbeddedChunk chunk = chunk(String.format("c%03d", i), "text of chunk " + i + " ".repeat(1000)); // ~1 KB a record
                store.upsert(NS, List.of(chunk));
                written.add(chunk);
            }
            Path index = store.pathOf(NS);
            // the size threshold is checked by the store's background thread
            Poll.until("a background commit past translog.flushBytes", Duration.ofSeconds(30), () -> committedDocuments(index) > 0);
            Map<String, String> commit;
            try (FSDirectory directory = FSDirectory.open(index)) {
                commit = SegmentInfos.readLatestCommit(directory).getUserData();
            }
            long replayFrom = Long.parseLong(commit.get(NamespaceIndex.TRANSLOG_KEY));
            assertTrue(replayFrom > 1, "the commit records the generation its replay starts from: " + commit);
            assertTrue(Translog.generations(index).stream().allMatch(g -> g >= replayFrom), "older generations were deleted: "
                    + Translog.generations(index) + " from " + replayFrom);
            Path image = crashImage(store);
            try (LuceneVectorStore recovered = StoreFixtures.open(image, Map.of())) {
                assertEquals(100, recovered.count(NS, MetadataFilter.all()), "the commit and the log's rest together");
            }
        }
    }

    @Test
    void anIdleCloseCommitsEverythingAndLeavesNoLog() throws Exception {
        Path data = temp.resolve("data");
        try (LuceneVectorStore store = StoreFixtures.open(data, NO_BACKGROUND_COMMIT)) {
            store.upsert(NS, List.of(chunk("a", "alpha"), chunk("b", "beta")));
            Path index = store.pathOf(NS);
            assertEquals(1, Translog.generations(index).size());

            store.releaseTenant(NS.tenant());

            assertEquals(List.of(), Translog.generations(index));
            assertEquals(2, committedDocuments(index));
            store.upsert(NS, List.of(chunk("c", "gamma")));
            assertEquals(List.of("a", "b", "c"), ids(store), "reopened on the next call");
        }
    }

    /** A namespace idle since its last commit holds Lucene's write lock only: the next generation's file opens with the next write. */
    @Test
    void afterABackgroundCommitNoTranslogFileIsOpenOrOnDisk() throws Exception {
        Path data = temp.resolve("data");
        // The interval runs from the last commit: each write below is checked well within it (at 50 ms a loaded CI
        // machine committed the last write before its check could see the open generation).
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("translog.flushInterval", "1s"))) {
            store.upsert(NS, List.of(chunk("a", "alpha")));
            Path index = store.pathOf(NS);
            assertEquals(1, openTranslogFiles(index), "the generation being written is open");
            Poll.until("the background commit after translog.flushInterval", Duration.ofSeconds(30),
                    () -> noLogGeneration(index));
            assertEquals(List.of(), Translog.generations(index), "committed: the generation was deleted, the next not yet created");
            assertEquals(0, openTranslogFiles(index));
            assertEquals(1, committedDocuments(index));
            store.upsert(NS, List.of(chunk("b", "beta")));
            assertEquals(1, openTranslogFiles(index));
        }
    }

    private static long openTranslogFiles(Path index) throws IOException {
        Path real = index.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.filter(fd -> {
                try {
                    Path target = Files.readSymbolicLink(fd);
                    return target.startsWith(real) && target.getFileName().toString().endsWith(".tlog");
                } catch (IOException closedMeanwhile) {
                    return false;
                }
            }).count();
        }
    }

    /**
     * A batch that fails while it is applied (here: its segment flush finds the index directory gone, a real I/O failure
     * in the middle of the batch) is refused whole: the index rolls back to its last commit, the acknowledged writes come
     * back from the log, and the refused batch was taken out of the log, so no replay applies it later.
     */
    @Test
    void aWriteThatFailsMidBatchIsRolledBackAndNeverReplayed() throws Exception {
        Path data = temp.resolve("data");
        TestVectors wide = new TestVectors(9, 384);
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("ramBufferMb", "1", "translog.flushInterval", "1h"))) {
            store.upsert(NS, List.of(chunk("a", "alpha")));
            Path index = store.pathOf(NS);
            Path aside = index.resolveSibling("aside");
            Files.move(index, aside);
            List<EmbeddedChunk> batch = new ArrayList<>();
            for (int i = 0; i < 2000; i++) { // ~3 MB: more than the 1 MB buffer, so Lucene flushes inside the batch
                batch.add(new EmbeddedChunk(new Chunk("big" + i, "big", i, "bulk ".repeat(100), List.of(), Map.of()), wide.next()));
            }
            assertThrows(RuntimeException.class, () -> store.upsert(NS, batch));
            Files.move(aside, index);

            assertEquals(List.of("a"), ids(store), "rolled back, reopened, the acknowledged write replayed, the failed batch not");
            store.upsert(NS, List.of(chunk("b", "beta")));
            assertEquals(List.of("a", "b"), ids(store), "the store writes again");
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            assertEquals(List.of("a", "b"), ids(store));
        }
    }

    /** Copies the namespace's directory as a crash would leave it: the store keeps running, nothing is closed or committed. */
    private Path crashImage(LuceneVectorStore store) throws IOException {
        Path image = temp.resolve("crash-" + crashes++);
        copyTree(store.pathOf(NS), LuceneVectorStore.pathOf(image, NS));
        return image;
    }

    private static Path onlyGeneration(Path data) throws IOException {
        Path index = LuceneVectorStore.pathOf(data, NS);
        List<Long> generations = Translog.generations(index);
        assertEquals(1, generations.size(), "one log generation: " + generations);
        return Translog.fileOf(index, generations.get(0));
    }

    private static int committedDocuments(Path index) {
        try (FSDirectory directory = FSDirectory.open(index)) {
            if (!DirectoryReader.indexExists(directory)) {
                return 0;
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                return reader.numDocs();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean noLogGeneration(Path index) {
        try {
            return Translog.generations(index).isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> ids(LuceneVectorStore store) {
        return store.list(NS, null, 100).chunks().stream().map(Chunk::id).toList();
    }
}
