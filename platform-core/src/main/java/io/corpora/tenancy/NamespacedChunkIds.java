package io.corpora.tenancy;

import io.corpora.spi.Namespace;

/**
 * Chunk ids as stores see them: {@code <tenant>~<partition>/<documentId>@v<version>#<index>}. Equal document ids in
 * two tenants or partitions never collide, and two versions of one document coexist during an atomic replace. A re-embed
 * migration writes a second embedder generation of the same version beside the first, so its ids carry the new
 * generation's tag: {@code …#<index>~<tag>}.
 */
public final class NamespacedChunkIds {

    private NamespacedChunkIds() {}

    public static String of(Namespace namespace, String documentId, int version, int index) {
        if (version < 1 || index < 0) {
            throw new IllegalArgumentException("version must be >= 1 and index >= 0");
        }
        return namespace.tenant() + "~" + namespace.partitionKey() + "/" + documentId + "@v" + version + "#" + index;
    }

    /**
     * The id of a chunk re-embedded by a migration into the generation of {@code embedderId}: never equal to the id the
     * serving generation's chunk has (ingest ids carry no tag, and each generation's tag differs).
     */
    public static String of(Namespace namespace, String documentId, int version, int index, String embedderId) {
        return of(namespace, documentId, version, index) + "~" + generationTag(embedderId);
    }

    /** The hash part of a fingerprint id ({@code model.dimension.hash}): short, and distinct per fingerprint. */
    public static String generationTag(String embedderId) {
        if (embedderId == null || embedderId.isBlank()) {
            throw new IllegalArgumentException("an embedder generation needs a fingerprint id");
        }
        return embedderId.substring(embedderId.lastIndexOf('.') + 1);
    }
}
