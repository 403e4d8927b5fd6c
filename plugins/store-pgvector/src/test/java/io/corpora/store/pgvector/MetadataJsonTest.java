package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Metadata round-trips through its jsonb text to equal values, and a corrupt row is named, not half-read. */
class MetadataJsonTest {

    @Test
    void scalarsAndListsRoundTripToEqualValues() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("title", "Quote \" backslash \\ tab \t line\n unicode é \u0001");
        metadata.put("count", 3);
        metadata.put("big", 9_000_000_000L);
        metadata.put("score", 4.5);
        metadata.put("draft", false);
        metadata.put("tags", List.of("a", "b"));
        String json = MetadataJson.write(metadata);
        assertEquals(metadata, MetadataJson.read(json));
        assertEquals(List.of("title", "count", "big", "score", "draft", "tags"), List.copyOf(MetadataJson.read(json).keySet()),
                "key order is kept");
    }

    @Test
    void anIntegerBeyondLongIsReadAsADouble() {
        assertEquals(Map.of("n", 1.0E20), MetadataJson.read("{\"n\": 100000000000000000000}"));
    }

    @Test
    void aRowThatIsNotAJsonObjectIsNamed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> MetadataJson.read("[1, 2]"));
        assertEquals(true, e.getMessage().contains("[1, 2]"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> MetadataJson.read("{\"a\": 1} trailing"));
    }
}
