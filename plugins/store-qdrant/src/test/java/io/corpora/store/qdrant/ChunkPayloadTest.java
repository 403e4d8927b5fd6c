package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The payload layout. Qdrant "allows you to store any information that can be represented using JSON", with keyword,
 * integer, float and bool values and arrays of them (https://qdrant.tech/documentation/manage-data/payload/); a filter path
 * segment may be quoted ({@code quoted_str} in lib/segment/src/json_path/parse.rs, whose tests say
 * {@code key_needs_quoting("foo.bar.baz")}), so a metadata key with dots is one segment.
 */
class ChunkPayloadTest {

    @Test
    void chunksRoundTripWithTypedMetadataInTheirOrder() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("title", "ação ☃ \"q\" \\");
        metadata.put("i", 7);
        metadata.put("l", 1L << 40);
        metadata.put("d", 2.5);
        metadata.put("b", false);
        metadata.put("tags", List.of("b", "a", "b"));
        metadata.put("nums", List.of(1, 2.5));
        metadata.put("empty", List.of());
        metadata.put("dotted.key-x", "v");
        metadata.put(ReservedKeys.EMBEDDER, "model.8.abc");
        Chunk chunk = new Chunk("d#3", "d", 3, "clean text", List.of("Policy", "Lodging"), metadata);
        Map<String, Value> payload = ChunkPayload.encode(Namespace.of("acme", "legal"), chunk);
        Chunk back = ChunkPayload.decode(payload);
        assertEquals(chunk.id(), back.id());
        assertEquals(chunk.documentId(), back.documentId());
        assertEquals(3, back.index());
        assertEquals("clean text", back.text());
        assertEquals(chunk.headingPath(), back.headingPath());
        assertEquals(List.copyOf(metadata.keySet()), List.copyOf(back.metadata().keySet()), "keys in the order written");
        assertEquals(7L, back.metadata().get("i"), "integers come back as int64");
        assertEquals(1L << 40, back.metadata().get("l"));
        assertEquals(2.5, back.metadata().get("d"));
        assertEquals(false, back.metadata().get("b"));
        assertEquals(List.of(1L, 2.5), back.metadata().get("nums"), "a list keeps each element's type");
        assertEquals(List.of(), back.metadata().get("empty"));
        assertEquals(metadata.get("title"), back.metadata().get("title"));
        assertEquals(List.of("b", "a", "b"), back.metadata().get("tags"), "a list keeps order and repeats");
        assertEquals("acme", payload.get(ChunkPayload.TENANT).getStringValue());
        assertEquals("legal", payload.get(ChunkPayload.PARTITION).getStringValue());
        assertEquals("model.8.abc", payload.get(ChunkPayload.EMBEDDER).getStringValue(), "the fingerprint is also a top-level keyword");
    }

    @Test
    void theDefaultPartitionIsStoredByName() {
        Map<String, Value> payload = ChunkPayload.encode(Namespace.of("acme"), new Chunk("c", "d", 0, "t", List.of(), Map.of()));
        assertEquals(Namespace.DEFAULT_PARTITION, payload.get(ChunkPayload.PARTITION).getStringValue());
        assertFalse(payload.containsKey(ChunkPayload.EMBEDDER), "no fingerprint, no embedder field");
    }

    @Test
    void numbersKeepTheirDecimalValue() {
        assertEquals(0.1, ChunkPayload.encodeValue(0.1f).getDoubleValue(), 0, "a float is stored as the decimal it prints as");
        assertEquals(12L, ChunkPayload.encodeValue(new BigDecimal("12")).getIntegerValue());
        assertEquals(1.25, ChunkPayload.encodeValue(new BigDecimal("1.25")).getDoubleValue(), 0);
        assertTrue(ChunkPayload.encodeValue(java.math.BigInteger.TWO.pow(70)).hasDoubleValue(), "beyond int64 it is a double");
    }

    @Test
    void metadataPathsAreOneQuotedSegmentUnderMeta() {
        for (String key : List.of("k", "k.x-y_z", "_embedder", "a.b.c")) {
            assertEquals(List.of("meta", key), DocumentedFilterSemantics.segments(ChunkPayload.metadataPath(key)), key);
        }
    }
}
