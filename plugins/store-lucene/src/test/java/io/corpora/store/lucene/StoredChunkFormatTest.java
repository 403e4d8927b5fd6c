package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.testkit.Poll;
import io.corpora.testkit.TestVectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.store.FSDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Chunks are stored in blocks of {@code storedFields.blockKb}: Lucene's standard codec reads them back whole (so any
 * Lucene 9.12 reader, and earlier builds of this store, read such an index), also beside segments written with another
 * block size and after those are merged into one, and the size is in effect — the same chunks take more stored bytes in
 * small blocks than in Lucene's 80 KB.
 */
class StoredChunkFormatTest {

    private static final Namespace NS = Namespace.of("acme");
    private static final String[] WORDS = ("harbour lodging market tariff glacier protein receptor cohort placebo enzyme "
            + "mutation pathway lattice turbine ledger invoice quorum satellite orbit catalyst membrane neuron cortex").split(" ");

    @TempDir
    Path data;

    @Test
    void chunksInSmallBlocksAreReadByLucenesStandardCodecBesideLargeOnesAndAfterMergingWithThem() throws IOException {
        Random random = new Random(3);
        TestVectors vectors = new TestVectors(3, 8);
        List<EmbeddedChunk> first = chunks("a", 300, random, vectors);
        List<EmbeddedChunk> second = chunks("b", 300, random, vectors);

        long small = write(data.resolve("small"), "4", first);
        long lucene = write(data.resolve("lucene"), "80", first);
        assertTrue(small > lucene * 1.1, "4 KB blocks compress worse than 80 KB: " + small + " vs " + lucene + " bytes");
        assertStoredAsWritten(data.resolve("small"), first);
        assertStoredAsWritten(data.resolve("lucene"), first);

        write(data.resolve("lucene"), "4", second); // a segment in 4 KB blocks beside one in 80 KB
        List<EmbeddedChunk> both = new ArrayList<>(first);
        both.addAll(second);
        assertStoredAsWritten(data.resolve("lucene"), both);

        // Merged into one segment (the idle merge): the 80 KB blocks rewritten in 16 KB ones, nothing lost.
        try (LuceneVectorStore store = StoreFixtures.open(data.resolve("lucene"), Map.of("merge.idleAfter", "1s",
                "translog.flushInterval", "50ms"))) {
            store.count(NS, MetadataFilter.all());
            Poll.until("the namespace merged into one segment", Duration.ofSeconds(60),
                    () -> StoreFixtures.committedSegments(LuceneVectorStore.pathOf(data.resolve("lucene"), NS)) == 1);
        }
        assertStoredAsWritten(data.resolve("lucene"), both);
    }

    /** Writes through the store with that block size; returns the namespace's bytes on disk (small segments are compound files). */
    private static long write(Path root, String blockKb, List<EmbeddedChunk> chunks) throws IOException {
        try (LuceneVectorStore store = StoreFixtures.open(root, Map.of("storedFields.blockKb", blockKb))) {
            store.upsert(NS, chunks);
        }
        try (Stream<Path> files = Files.list(LuceneVectorStore.pathOf(root, NS))) {
            return files.mapToLong(file -> file.toFile().length()).sum();
        }
    }

    /** Read with a plain {@link DirectoryReader}: the codec named in each segment, looked up as Lucene looks it up. */
    private static void assertStoredAsWritten(Path root, List<EmbeddedChunk> written) throws IOException {
        Map<String, Chunk> read = new HashMap<>();
        try (FSDirectory directory = FSDirectory.open(LuceneVectorStore.pathOf(root, NS));
             DirectoryReader reader = DirectoryReader.open(directory)) {
            StoredFields stored = reader.storedFields();
            for (int doc = 0; doc < reader.maxDoc(); doc++) {
                Chunk chunk = ChunkDocuments.readChunk(stored, doc);
                read.put(chunk.id(), chunk);
            }
        }
        assertEquals(written.size(), read.size());
        for (EmbeddedChunk chunk : written) {
            assertEquals(chunk.chunk(), read.get(chunk.chunk().id()));
        }
    }

    private static List<EmbeddedChunk> chunks(String prefix, int count, Random random, TestVectors vectors) {
        List<EmbeddedChunk> chunks = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            StringBuilder text = new StringBuilder();
            while (text.length() < 1_200) {
                text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
            }
            String id = prefix + i;
            chunks.add(new EmbeddedChunk(new Chunk(id, "doc-" + prefix + i / 3, i % 3, text.toString().trim(), List.of("Section " + i % 7),
                    Map.of("source", "s-" + i % 5, "year", 2000 + i % 20)), vectors.next()));
        }
        return chunks;
    }
}
