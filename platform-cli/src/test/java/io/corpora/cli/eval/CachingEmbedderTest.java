package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.testkit.TestEmbedder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CachingEmbedderTest {

    @TempDir
    Path cacheDir;

    @Test
    void aSecondRunReadsVectorsFromDiskInsteadOfTheModel() {
        TestEmbedder first = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(first, cacheDir)) {
            cache.embedDocuments(List.of("alpha beta", "gamma"));
            cache.embedDocuments(List.of("gamma", "delta"));
            cache.embedQuery("alpha");
            assertEquals(3, first.documentsEmbedded(), "gamma embedded once");
            assertEquals(1, cache.hits());
        }
        TestEmbedder second = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(second, cacheDir)) {
            List<float[]> vectors = cache.embedDocuments(List.of("alpha beta", "delta"));
            assertArrayEquals(TestEmbedder.ofDimension(64).vector("alpha beta"), vectors.get(0));
            cache.embedQuery("alpha");
            assertEquals(0, second.documentsEmbedded());
            assertEquals(0, second.queriesEmbedded());
        }
    }

    @Test
    void documentsAndQueriesAreCachedApartAndATruncatedTailIsIgnored() throws IOException {
        TestEmbedder model = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(model, cacheDir)) {
            cache.embedDocuments(List.of("same text"));
            cache.embedQuery("same text");
            assertEquals(1, model.queriesEmbedded(), "a query is embedded with its instruction, so it is not the document's vector");
        }
        Path file = cacheDir.resolve(model.fingerprint().id() + ".1.vectors");
        Files.write(file, new byte[] {1, 2, 3}, StandardOpenOption.APPEND); // a crash mid-record
        TestEmbedder again = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(again, cacheDir)) {
            cache.embedDocuments(List.of("same text"));
            assertEquals(0, again.documentsEmbedded());
        }
    }

    @Test
    void vectorsMadeWithOtherSettingsOfTheSameModelAreNeverServed() {
        TestEmbedder defaults = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(defaults, cacheDir)) {
            cache.embedQuery("alpha");
            cache.embedDocuments(List.of("beta"));
        }
        TestEmbedder withoutInstruction = TestEmbedder.ofDimension(64); // same fingerprint: the settings are not in it
        try (CachingEmbedder cache = new CachingEmbedder(withoutInstruction, cacheDir, "", "{queryInstruction=none}")) {
            cache.embedQuery("alpha");
            cache.embedDocuments(List.of("beta"));
            assertEquals(1, withoutInstruction.queriesEmbedded(), "the default settings' query vector is not this variant's");
            assertEquals(0, withoutInstruction.documentsEmbedded(), "the instruction does not touch documents: theirs are shared");
            cache.embedQuery("alpha");
            assertEquals(1, withoutInstruction.queriesEmbedded(), "the variant's own vector is cached");
        }
        TestEmbedder otherDocuments = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(otherDocuments, cacheDir, "{truncation=head}", "{truncation=head}")) {
            cache.embedDocuments(List.of("beta"));
            assertEquals(1, otherDocuments.documentsEmbedded(), "settings that change document vectors keep them apart");
        }
        TestEmbedder defaultsAgain = TestEmbedder.ofDimension(64);
        try (CachingEmbedder cache = new CachingEmbedder(defaultsAgain, cacheDir)) {
            cache.embedQuery("alpha");
            assertEquals(0, defaultsAgain.queriesEmbedded(), "the default settings still read their own vectors");
        }
    }
}
