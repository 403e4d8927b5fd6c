package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.corpora.spi.Namespace;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Point ids are version-5 UUIDs (RFC 9562 §5.5, https://www.rfc-editor.org/rfc/rfc9562#section-5.5): Qdrant accepts "either
 * an unsigned integer or a UUID" as a point id (https://qdrant.tech/documentation/manage-data/points/#point-ids).
 */
class PointIdsTest {

    /** RFC 9562 Appendix A.4: the v5 UUID of "www.example.com" in the DNS namespace. */
    @Test
    void theRfcTestVectorComesOut() {
        UUID dns = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");
        assertEquals(UUID.fromString("2ed6657d-e927-568b-95e1-2665a8aea6a2"), PointIds.nameBased(dns, "www.example.com"));
        assertEquals(UUID.fromString("f0cba3bc-66e1-514d-a6f6-80e27f3b7bb2"), PointIds.CHUNK_NAMESPACE,
                "the chunk namespace is the v5 UUID of io.corpora.chunk in the URL namespace");
    }

    @Test
    void idsAreDeterministicVersion5AndTheVariantOfTheRfc() {
        UUID id = PointIds.of(Namespace.of("acme"), "doc#3");
        assertEquals(id, PointIds.of(Namespace.of("acme"), "doc#3"), "the same chunk is the same point: upserts replace");
        assertEquals(5, id.version());
        assertEquals(2, id.variant());
        assertEquals(PointIds.of(Namespace.of("acme"), "doc#3"), PointIds.of(Namespace.of("acme", Namespace.DEFAULT_PARTITION), "doc#3"),
                "the named default partition is the tenant's own namespace");
    }

    /** Namespaces share collections, so equal chunk ids of two namespaces must be two points. */
    @Test
    void equalChunkIdsOfDifferentNamespacesNeverShareAPoint() {
        Set<UUID> ids = new HashSet<>();
        ids.add(PointIds.of(Namespace.of("acme"), "d#0"));
        ids.add(PointIds.of(Namespace.of("acme", "legal"), "d#0"));
        ids.add(PointIds.of(Namespace.of("globex"), "d#0"));
        ids.add(PointIds.of(Namespace.of("acme"), "legal/d#0"));
        ids.add(PointIds.of(Namespace.of("acme", "legal"), "_default/d#0"));
        assertEquals(5, ids.size(), "tenant and partition ids cannot hold '/', so the hashed names never coincide: " + ids);
        assertNotEquals(PointIds.of(Namespace.of("a"), "b"), PointIds.of(Namespace.of("a"), "B"));
    }
}
