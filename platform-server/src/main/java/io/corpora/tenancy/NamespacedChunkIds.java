package io.corpora.tenancy;

import io.corpora.spi.Namespace;

/**
 * Chunk ids as stores see them: {@code <tenant>~<partition>/<documentId>@v<version>#<index>}. Equal document ids in
 * two tenants or partitions never collide, and two versions of one document coexist during an atomic replace.
 */
public final class NamespacedChunkIds {

    private NamespacedChunkIds() {}

    public static String of(Namespace namespace, String documentId, int version, int index) {
        if (version < 1 || index < 0) {
            throw new IllegalArgumentException("version must be >= 1 and index >= 0");
        }
        return namespace.tenant() + "~" + namespace.partitionKey() + "/" + documentId + "@v" + version + "#" + index;
    }
}
