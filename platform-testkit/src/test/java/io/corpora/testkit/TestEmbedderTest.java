package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.InvalidInputException;
import io.corpora.spi.VectorMath;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TestEmbedderTest {

    @Test
    void textsSharingWordsAreNearerThanUnrelatedOnes() {
        TestEmbedder embedder = TestEmbedder.ofDimension(64);
        float[] hotel = embedder.embedQuery("hotel booking policy");
        double related = VectorMath.dotProduct(hotel, embedder.embedQuery("the hotel policy for travel"));
        double unrelated = VectorMath.dotProduct(hotel, embedder.embedQuery("quarterly revenue grew"));
        assertTrue(related > unrelated + 0.3, related + " vs " + unrelated);
    }

    @Test
    void twoSaltsAreTwoFingerprintsOfOneWidthWithDifferentVectors() {
        TestEmbedder a = TestEmbedder.hashedWords(32).salt("a").build();
        TestEmbedder b = TestEmbedder.hashedWords(32).salt("b").build();
        assertEquals(a.dimension(), b.dimension());
        assertNotEquals(a.fingerprint().id(), b.fingerprint().id());
        assertFalse(java.util.Arrays.equals(a.embedQuery("lodging rules apply"), b.embedQuery("lodging rules apply")));
        assertArrayEquals(a.embedQuery("lodging"), TestEmbedder.hashedWords(32).salt("a").build().embedQuery("lodging"));
    }

    @Test
    void aTableGivesItsVectorsExactlyAndRefusesTextsItDoesNotHold() {
        TestEmbedder table = TestEmbedder.table("t", 2).put("north", 0, 1).put("east", 1, 0).build();
        assertArrayEquals(new float[] {0, 1}, table.embedQuery("north"));
        assertFalse(table.fingerprint().normalized(), "table vectors are used as given");
        assertThrows(IllegalArgumentException.class, () -> table.embedQuery("west"));
        assertThrows(IllegalArgumentException.class, () -> TestEmbedder.table("t", 2).put("x", 1, 2, 3));
    }

    @Test
    void countsRecordsAndRunsTheHookBeforeEachDocumentBatch() {
        List<List<String>> batches = new ArrayList<>();
        TestEmbedder embedder = TestEmbedder.ofDimension(8).beforeDocumentBatch(batches::add);
        embedder.embedDocuments(List.of("a", "b"));
        embedder.embedDocuments(List.of("c"));
        embedder.embedQuery("q");
        assertEquals(List.of(List.of("a", "b"), List.of("c")), batches);
        assertEquals(3, embedder.documentsEmbedded());
        assertEquals(1, embedder.queriesEmbedded());
        assertEquals(List.of("a", "b", "c"), embedder.embeddedDocuments());
    }

    @Test
    void aFailingHookEmbedsAndCountsNothing() {
        TestEmbedder embedder = TestEmbedder.ofDimension(8).beforeDocumentBatch(texts -> {
            throw new IllegalStateException("crash");
        });
        assertThrows(IllegalStateException.class, () -> embedder.embedDocuments(List.of("a")));
        assertEquals(0, embedder.documentsEmbedded());
    }

    @Test
    void inputOverTheTokenLimitIsACallerError() {
        TestEmbedder embedder = TestEmbedder.hashedWords(8).maxInputTokens(3).build();
        assertEquals(8, embedder.embedQuery("one two three").length);
        assertThrows(InvalidInputException.class, () -> embedder.embedQuery("one two three four"));
        assertThrows(InvalidInputException.class, () -> embedder.embedDocuments(List.of("ok", "one two three four")));
        assertEquals(0, embedder.documentsEmbedded(), "a refused batch embeds nothing");
    }
}
