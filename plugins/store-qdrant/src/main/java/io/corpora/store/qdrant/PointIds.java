package io.corpora.store.qdrant;

import io.corpora.spi.Namespace;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Deterministic Qdrant point ids: the RFC 9562 (formerly 4122) version-5 UUID of the chunk id within its namespace. The
 * same chunk always maps to the same point, so an upsert replaces it, and equal chunk ids of two namespaces sharing a
 * collection never meet: the name hashed is {@code tenant/partition/chunkId}, unambiguous because tenant and partition
 * ids cannot contain {@code /}.
 */
final class PointIds {

    /** The namespace UUID of Corpora chunk ids (itself the v5 UUID of "io.corpora.chunk" in the RFC's URL namespace). */
    static final UUID CHUNK_NAMESPACE = nameBased(UUID.fromString("6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "io.corpora.chunk");

    private PointIds() {}

    static UUID of(Namespace namespace, String chunkId) {
        return nameBased(CHUNK_NAMESPACE, namespace.tenant() + "/" + namespace.partitionKey() + "/" + chunkId);
    }

    /** RFC 9562 §5.5: SHA-1 of the namespace's 16 bytes then the name's UTF-8, version 5, variant 10. */
    static UUID nameBased(UUID namespace, String name) {
        MessageDigest sha1;
        try {
            sha1 = MessageDigest.getInstance("SHA-1");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JDK", e);
        }
        sha1.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits()).putLong(namespace.getLeastSignificantBits()).array());
        byte[] hash = sha1.digest(name.getBytes(StandardCharsets.UTF_8));
        hash[6] = (byte) ((hash[6] & 0x0f) | 0x50);
        hash[8] = (byte) ((hash[8] & 0x3f) | 0x80);
        ByteBuffer bytes = ByteBuffer.wrap(hash, 0, 16);
        return new UUID(bytes.getLong(), bytes.getLong());
    }
}
