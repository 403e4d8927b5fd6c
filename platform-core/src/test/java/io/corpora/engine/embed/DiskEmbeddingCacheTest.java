package io.corpora.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.testkit.TestEmbedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DiskEmbeddingCacheTest {

    private static final DiskEmbeddingCache.Space DOCUMENTS = new DiskEmbeddingCache.Space("acme", "document", "");

    @TempDir
    Path dir;

    @Test
    void aVectorReadBackIsTheModelsVectorBitForBitAfterAReopen() {
        float nanWithPayload = Float.intBitsToFloat(0x7fc01234);
        float[] odd = {-0.0f, nanWithPayload, Float.MIN_VALUE, -Float.MAX_VALUE};
        TestEmbedder model = TestEmbedder.table("odd", 4).put("odd bits", odd).put("plain", 0.5f, 0.25f, -1f, 2f).build();
        try (DiskEmbeddingCache cache = open(model)) {
            cache.embed(DOCUMENTS, List.of("odd bits", "plain"), model::embedDocuments);
        }
        try (DiskEmbeddingCache cache = open(model)) {
            List<float[]> again = cache.embed(DOCUMENTS, List.of("plain", "odd bits"), texts -> {
                throw new AssertionError("the model was called for " + texts);
            });
            assertArrayEquals(bits(odd), bits(again.get(1)));
            assertArrayEquals(bits(new float[] {0.5f, 0.25f, -1f, 2f}), bits(again.get(0)));
            assertEquals(2, cache.hits());
            assertEquals(0, cache.misses());
        }
    }

    @Test
    void onlyTheMissingTextsGoToTheModelInOneCallInOrder() {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(model)) {
            cache.embed(DOCUMENTS, List.of("b"), model::embedDocuments);
            List<List<String>> calls = new ArrayList<>();
            List<float[]> vectors = cache.embed(DOCUMENTS, List.of("a", "b", "c"), texts -> {
                calls.add(texts);
                return model.embedDocuments(texts);
            });
            assertEquals(List.of(List.of("a", "c")), calls);
            assertArrayEquals(TestEmbedder.ofDimension(16).vector("c"), vectors.get(2));
            assertArrayEquals(TestEmbedder.ofDimension(16).vector("b"), vectors.get(1));
            assertEquals(1, cache.hits());
            assertEquals(3, cache.misses());
        }
    }

    @Test
    void anotherOwnerKindSettingOrModelNeverReadsTheVector() {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(model)) {
            cache.put(DOCUMENTS, "text", model.vector("text"));
            assertTrue(cache.get(DOCUMENTS, "text") != null);
            assertNull(cache.get(new DiskEmbeddingCache.Space("globex", "document", ""), "text"), "another tenant");
            assertNull(cache.get(new DiskEmbeddingCache.Space("acme", "query", ""), "text"), "a query of the same text");
            assertNull(cache.get(new DiskEmbeddingCache.Space("acme", "document", "{truncation=warn}"), "text"), "other settings");
            assertNull(cache.get(DOCUMENTS, "text "), "another text");
        }
        TestEmbedder rebuilt = TestEmbedder.hashedWords(16).revision("other-build").build(); // same width, another fingerprint
        try (DiskEmbeddingCache cache = open(rebuilt)) {
            assertNull(cache.get(DOCUMENTS, "text"), "another model");
        }
    }

    @Test
    void aCorruptRecordIsAMissAndTheOthersStillHit() throws IOException {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(model)) {
            cache.embed(DOCUMENTS, List.of("first", "second", "third"), model::embedDocuments);
        }
        Path file = onlyFile(model);
        int record = DiskEmbeddingCache.KEY_BYTES + 16 * Float.BYTES + Integer.BYTES;
        flipByte(file, DiskEmbeddingCache.HEADER_BYTES + record + DiskEmbeddingCache.KEY_BYTES + 5); // a bit of "second"'s vector
        flipByte(file, DiskEmbeddingCache.HEADER_BYTES + 2 * record + 20); // a byte of "third"'s key
        TestEmbedder again = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(again)) {
            List<float[]> vectors = cache.embed(DOCUMENTS, List.of("first", "second", "third"), again::embedDocuments);
            assertEquals(List.of("second", "third"), again.embeddedDocuments(), "the damaged records are misses");
            assertArrayEquals(model.vector("second"), vectors.get(1), "and the model's vector is what comes back");
            assertEquals(1, cache.hits());
        }
        TestEmbedder third = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(third)) {
            cache.embed(DOCUMENTS, List.of("first", "second", "third"), third::embedDocuments);
            assertEquals(0, third.documentsEmbedded(), "the re-embedded vectors were written again, and read back whole");
        }
    }

    @Test
    void aTornLastRecordIsCutOffSoLaterRecordsStayReadable() throws IOException {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(model)) {
            cache.embed(DOCUMENTS, List.of("kept"), model::embedDocuments);
        }
        Files.write(onlyFile(model), new byte[] {1, 2, 3, 4, 5}, StandardOpenOption.APPEND); // a crash mid-record
        try (DiskEmbeddingCache cache = open(model)) {
            cache.embed(DOCUMENTS, List.of("written after the crash"), model::embedDocuments);
        }
        TestEmbedder again = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache cache = open(again)) {
            cache.embed(DOCUMENTS, List.of("kept", "written after the crash"), again::embedDocuments);
            assertEquals(0, again.documentsEmbedded());
        }
    }

    @Test
    void aFileOfAnotherFormatIsStartedOverNotRead() throws IOException {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        Files.write(dir.resolve(model.fingerprint().id() + ".1.vectors"), new byte[400]);
        try (DiskEmbeddingCache cache = open(model)) {
            assertNull(cache.get(DOCUMENTS, "anything"));
            cache.put(DOCUMENTS, "anything", model.vector("anything"));
        }
        try (DiskEmbeddingCache cache = open(model)) {
            assertArrayEquals(model.vector("anything"), cache.get(DOCUMENTS, "anything"));
        }
    }

    @Test
    void itStaysWithinItsBoundAndKeepsWhatIsStillUsed() throws IOException {
        TestEmbedder model = TestEmbedder.ofDimension(64);
        long bound = DiskEmbeddingCache.MIN_MAX_BYTES;
        int record = DiskEmbeddingCache.KEY_BYTES + 64 * Float.BYTES + Integer.BYTES;
        int texts = (int) (3 * bound / record); // three times what fits
        try (DiskEmbeddingCache cache = DiskEmbeddingCache.open(dir, model.fingerprint(), bound)) {
            cache.put(DOCUMENTS, "hot", model.vector("hot"));
            for (int i = 0; i < texts; i++) {
                cache.put(DOCUMENTS, "text " + i, model.vector("text " + i));
                if (i % 500 == 0) {
                    assertArrayEquals(model.vector("hot"), cache.get(DOCUMENTS, "hot")); // used now and then
                }
                assertTrue(cache.bytes() <= bound, "on disk " + cache.bytes() + " > " + bound);
            }
            assertArrayEquals(model.vector("hot"), cache.get(DOCUMENTS, "hot"));
            assertNull(cache.get(DOCUMENTS, "text 0"), "the oldest unused vectors are gone");
            assertArrayEquals(model.vector("text " + (texts - 1)), cache.get(DOCUMENTS, "text " + (texts - 1)));
        }
        long onDisk;
        try (Stream<Path> files = Files.list(dir)) {
            onDisk = files.filter(p -> p.toString().endsWith(".vectors")).mapToLong(p -> p.toFile().length()).sum();
        }
        assertTrue(onDisk <= bound, "files hold " + onDisk + " bytes");
    }

    @Test
    void aSecondOpenOfTheSameFilesIsRefusedNotInterleaved() {
        TestEmbedder model = TestEmbedder.ofDimension(16);
        try (DiskEmbeddingCache first = open(model)) {
            assertThrows(UncheckedIOException.class, () -> open(model));
            first.put(DOCUMENTS, "still writable", model.vector("still writable"));
        }
        try (DiskEmbeddingCache reopened = open(model)) {
            assertTrue(reopened.get(DOCUMENTS, "still writable") != null);
        }
    }

    @Test
    void concurrentCallersEachGetTheirOwnTextsVectors() throws Exception {
        TestEmbedder model = TestEmbedder.ofDimension(32);
        try (DiskEmbeddingCache cache = open(model)) {
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 4; t++) {
                Thread thread = new Thread(() -> {
                    try {
                        for (int round = 0; round < 50; round++) {
                            List<String> texts = IntStream.range(round, round + 8).mapToObj(i -> "shared " + i).toList();
                            List<float[]> vectors = cache.embed(DOCUMENTS, texts, model::embedDocuments);
                            for (int i = 0; i < texts.size(); i++) {
                                assertArrayEquals(TestEmbedder.ofDimension(32).vector(texts.get(i)), vectors.get(i));
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                });
                threads.add(thread);
                thread.start();
            }
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(57, cache.entries(), "each text written once");
        }
    }

    private DiskEmbeddingCache open(TestEmbedder model) {
        return DiskEmbeddingCache.open(dir, model.fingerprint(), DiskEmbeddingCache.DEFAULT_MAX_BYTES);
    }

    private Path onlyFile(TestEmbedder model) {
        return dir.resolve(model.fingerprint().id() + ".1.vectors");
    }

    private static void flipByte(Path file, long position) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            channel.read(one, position);
            one.put(0, (byte) (one.get(0) ^ 0x10)).rewind();
            channel.write(one, position);
        }
    }

    private static int[] bits(float[] vector) {
        int[] bits = new int[vector.length];
        for (int i = 0; i < vector.length; i++) {
            bits[i] = Float.floatToRawIntBits(vector[i]);
        }
        return bits;
    }
}
