package io.corpora.tenancy;

import io.corpora.spi.Chunk;
import io.corpora.spi.Metadata;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Makes reserved metadata server-written: every caller-supplied key starting with {@code _} is dropped (never
 * trusted, never an error that a caller could probe), then the server's own values are stamped.
 */
public final class ReservedKeyStamper {

    private ReservedKeyStamper() {}

    /** Caller metadata without any reserved key. */
    public static Map<String, Object> stripCallerKeys(Map<String, ?> callerMetadata) {
        return Metadata.withoutReserved(callerMetadata);
    }

    /** The chunk with namespace, document and version stamped over whatever it carried. */
    public static Chunk stamp(Chunk chunk, Namespace namespace, String documentId, int version) {
        Map<String, Object> metadata = new LinkedHashMap<>(Metadata.withoutReserved(chunk.metadata()));
        metadata.put(ReservedKeys.TENANT, namespace.tenant());
        metadata.put(ReservedKeys.PARTITION, namespace.partitionKey());
        metadata.put(ReservedKeys.DOCUMENT, documentId);
        metadata.put(ReservedKeys.VERSION, version);
        return new Chunk(NamespacedChunkIds.of(namespace, documentId, version, chunk.index()), documentId, chunk.index(),
                chunk.text(), chunk.headingPath(), metadata);
    }

    public static List<Chunk> stampAll(List<Chunk> chunks, Namespace namespace, String documentId, int version) {
        return chunks.stream().map(c -> stamp(c, namespace, documentId, version)).toList();
    }
}
