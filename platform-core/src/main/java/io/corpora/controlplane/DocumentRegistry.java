package io.corpora.controlplane;

import io.corpora.spi.Namespace;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of documents per namespace (JPA-backed in the server). It is what makes replaces atomic: a new
 * version is {@link #beginVersion begun}, its chunks are written, and only then {@link #activateVersion activated}.
 */
public interface DocumentRegistry {

    /** The document's record, without its text. */
    Optional<DocumentRecord> find(Namespace namespace, String documentId);

    /** Documents of a namespace ordered by id, after {@code afterId} (null: first page), without their text. */
    List<DocumentRecord> list(Namespace namespace, String afterId, int limit);

    /** The given documents' records (those that exist), without their text, looked up together. */
    List<DocumentRecord> findAll(Namespace namespace, Collection<String> documentIds);

    /** The extracted text of the document's active version, the source a rebuild re-pushes; empty if none is stored. */
    Optional<String> text(Namespace namespace, String documentId);

    /** Every document of a namespace, in id order, paging through {@link #list}. */
    default List<DocumentRecord> all(Namespace namespace) {
        List<DocumentRecord> all = new java.util.ArrayList<>();
        String after = null;
        while (true) {
            List<DocumentRecord> page = list(namespace, after, 500);
            all.addAll(page);
            if (page.size() < 500) {
                return all;
            }
            after = page.get(page.size() - 1).documentId();
        }
    }

    /**
     * Marks a new version as being written and returns its number (active + 1, or pending + 1); the previous
     * active version stays the one served, with its description. The given description is recorded only for a
     * document that has no active version yet (so it can be listed while its first version is written).
     */
    int beginVersion(Namespace namespace, String documentId, String source, String mediaType, Map<String, Object> metadata, long bytes);

    /** Makes {@code version} the active one, with what was stored and its description; the caller then deletes older chunks. */
    default DocumentRecord activateVersion(Namespace namespace, String documentId, int version, String contentHash, int chunkCount, String text,
                                           DocumentDescription description) {
        return activateVersion(namespace, documentId, version, contentHash, chunkCount, text, description, null);
    }

    /**
     * Activates {@code version} as above and, when {@code embedderId} is given (the fingerprint its chunks were embedded
     * with), first checks under a lock on the tenant's row that it is still the tenant's active embedder and that no
     * re-embed migration is unfinished; otherwise throws {@link WriteRefusedException} and changes nothing.
     */
    default DocumentRecord activateVersion(Namespace namespace, String documentId, int version, String contentHash, int chunkCount, String text,
                                           DocumentDescription description, String embedderId) {
        return activateVersion(namespace, documentId, version, contentHash, chunkCount, text, description, embedderId, null);
    }

    /**
     * Activates {@code version} as above and, when {@code store} is given (the store choice its chunks were written to),
     * also checks under the same lock that it is still the tenant's store: a version written to the source of a
     * relocation that ended meanwhile is refused ({@link WriteRefusedException.Reason#STORE_MOVED}), never activated
     * against a copy it is not in. Any change of the store choice counts, location or not (a refusal costs a retry).
     */
    DocumentRecord activateVersion(Namespace namespace, String documentId, int version, String contentHash, int chunkCount, String text,
                                   DocumentDescription description, String embedderId, PluginChoice store);

    /**
     * Documents whose older versions' chunks may still be in the store: an activation marks the document (when an
     * older version ever existed) and {@link #cleanedUp} clears it once they are deleted. What a crash in between leaves.
     */
    List<String> awaitingCleanup(Namespace namespace);

    /** Clears the cleanup marker, if {@code activeVersion} is still the active one (a newer activation keeps its own). */
    void cleanedUp(Namespace namespace, String documentId, int activeVersion);

    /** Records a failed version; the previous active version (if any) stays active. */
    void failVersion(Namespace namespace, String documentId, int version, String error);

    /**
     * The active version of each given document that has one, looked up together (done per retrieval: never one
     * lookup per id, never a document body). Retrieval drops chunks of any other version, so a replace in progress
     * (or one that crashed) never shows a mix of versions.
     */
    Map<String, Integer> activeVersions(Namespace namespace, Collection<String> documentIds);

    /**
     * Removes the document, first running {@code removeChunks} (the deletion of its chunks from the store) inside the
     * same control-plane transaction; false, without running it, if the document does not exist. Taken under the lock
     * on the tenant's row that a migration's start takes, and refused with {@link WriteRefusedException}
     * ({@code MIGRATION_IN_PROGRESS}, nothing removed) while a re-embed or relocation is unfinished, whichever server runs
     * either: a migration's copy never sees a document half deleted. If {@code removeChunks} throws, the document stays.
     */
    boolean delete(Namespace namespace, String documentId, Runnable removeChunks);

    /** Removes every document of the tenant (all partitions); returns how many. */
    int deleteTenant(String tenantId);

    /** Counts over the tenant's partitions: documents, chunks and bytes of active versions. */
    CorpusStats stats(String tenantId);

    /** The same counts over one namespace only. */
    CorpusStats stats(Namespace namespace);

    /**
     * The tenant's documents, chunks and bytes of active versions without the breakdowns (empty maps): what a quota check
     * reads before every document it admits, so an implementation should answer it without reading the tenant's documents
     * (the JPA registry keeps these counts in a row changed with every activation and delete).
     */
    default CorpusStats totals(String tenantId) {
        CorpusStats stats = stats(tenantId);
        return new CorpusStats(stats.documents(), stats.chunks(), stats.bytes(), Map.of(), Map.of());
    }

    /** Documents counted per partition and status. */
    record CorpusStats(long documents, long chunks, long bytes, Map<String, Long> documentsByPartition, Map<String, Long> documentsByStatus) {}
}
