package io.corpora.controlplane;

import io.corpora.spi.Namespace;
import java.time.Instant;
import java.util.Map;

/**
 * A document in the registry: enough to list it, judge its visibility and verify the store against it. Its extracted
 * text (the source of truth for rebuilds) is not part of it: lists, lookups and verification never load document
 * bodies; {@link DocumentRegistry#text} reads one document's text where a rebuild needs it.
 *
 * @param activeVersion  the version searchable now (0: none yet)
 * @param pendingVersion the version being written, or 0
 * @param contentHash    fingerprint of normalised text + chunking options + embedder fingerprint (dedupe key)
 */
public record DocumentRecord(Namespace namespace, String documentId, String source, String mediaType, DocumentStatus status,
                             int activeVersion, int pendingVersion, String contentHash, int chunkCount, long bytes,
                             Map<String, Object> metadata, String error, Instant created, Instant updated) {
    public DocumentRecord {
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }
}
