package io.corpora.controlplane;

import java.util.Map;

/**
 * What the registry shows about a document's version besides its chunks: where it came from, its media type, its
 * metadata and its size. The registry keeps the description of the version it serves, so a replace that fails or is
 * interrupted never leaves the new version's description on the old version.
 */
public record DocumentDescription(String source, String mediaType, Map<String, Object> metadata, long bytes) {
    public DocumentDescription {
        metadata = metadata == null ? Map.of() : metadata;
    }
}
