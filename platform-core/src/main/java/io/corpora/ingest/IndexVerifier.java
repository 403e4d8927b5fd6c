package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Compares a namespace's store content with the registry, without repairing anything: documents whose active
 * version is missing chunks, chunks of no registered document (orphans), chunks of a non-active version (stale), and
 * chunks not stamped for the namespace.
 */
public final class IndexVerifier {

    public static final int MAX_LISTED = 100;
    private static final int PAGE = 500;

    private IndexVerifier() {}

    /** A divergence report; each list holds at most {@value #MAX_LISTED} ids, the counts are complete. */
    public record Report(int documents, long chunks, List<MissingChunks> missing, long missingCount, List<String> orphaned,
                         long orphanedCount, List<String> stale, long staleCount, List<String> unstamped, long unstampedCount) {
        public boolean consistent() {
            return missingCount == 0 && orphanedCount == 0 && staleCount == 0 && unstampedCount == 0;
        }
    }

    /** A registered document whose active version has fewer chunks in the store than recorded. */
    public record MissingChunks(String documentId, int version, int expected, int found) {}

    /** @param visible whether the caller may see a document (by its registry metadata) or a chunk (by its own) */
    public static Report verify(DocumentRegistry registry, VectorStore store, Namespace namespace, Predicate<Map<String, ?>> visible) {
        Map<String, DocumentRecord> documents = new HashMap<>();
        registry.all(namespace).stream().filter(d -> visible.test(d.metadata())).forEach(d -> documents.put(d.documentId(), d));
        Map<String, Integer> activeChunksFound = new HashMap<>();
        List<String> orphaned = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        List<String> unstamped = new ArrayList<>();
        long orphanedCount = 0;
        long staleCount = 0;
        long unstampedCount = 0;
        long chunks = 0;
        for (Chunk chunk : (Iterable<Chunk>) chunksOf(store, namespace).filter(c -> visible.test(c.metadata()))::iterator) {
            chunks++;
            if (!namespace.tenant().equals(chunk.metadata().get(ReservedKeys.TENANT))
                    || !namespace.partitionKey().equals(chunk.metadata().get(ReservedKeys.PARTITION))) {
                unstampedCount++;
                listed(unstamped, chunk.id());
                continue;
            }
            DocumentRecord document = documents.get(chunk.documentId());
            if (document == null) {
                orphanedCount++;
                listed(orphaned, chunk.id());
            } else if (!(chunk.metadata().get(ReservedKeys.VERSION) instanceof Number v) || v.intValue() != document.activeVersion()) {
                staleCount++;
                listed(stale, chunk.id());
            } else {
                activeChunksFound.merge(chunk.documentId(), 1, Integer::sum);
            }
        }
        List<MissingChunks> missing = new ArrayList<>();
        long missingCount = 0;
        for (DocumentRecord document : documents.values()) {
            int found = activeChunksFound.getOrDefault(document.documentId(), 0);
            if (document.activeVersion() > 0 && found < document.chunkCount()) {
                missingCount++;
                if (missing.size() < MAX_LISTED) {
                    missing.add(new MissingChunks(document.documentId(), document.activeVersion(), document.chunkCount(), found));
                }
            }
        }
        missing.sort(java.util.Comparator.comparing(MissingChunks::documentId));
        return new Report(documents.size(), chunks, missing, missingCount, orphaned, orphanedCount, stale, staleCount, unstamped, unstampedCount);
    }

    /** Every chunk of a namespace, paging through {@link VectorStore#list} lazily. */
    public static java.util.stream.Stream<Chunk> chunksOf(VectorStore store, Namespace namespace) {
        java.util.Iterator<Chunk> iterator = new java.util.Iterator<>() {
            private java.util.Iterator<Chunk> current = java.util.Collections.emptyIterator();
            private String afterId;
            private boolean exhausted;

            @Override
            public boolean hasNext() {
                while (!current.hasNext() && !exhausted) {
                    ChunkPage page = store.list(namespace, afterId, PAGE);
                    current = page.chunks().iterator();
                    afterId = page.nextAfterId();
                    exhausted = afterId == null;
                }
                return current.hasNext();
            }

            @Override
            public Chunk next() {
                if (!hasNext()) {
                    throw new java.util.NoSuchElementException();
                }
                return current.next();
            }
        };
        return java.util.stream.StreamSupport.stream(java.util.Spliterators.spliteratorUnknownSize(iterator, java.util.Spliterator.ORDERED), false);
    }

    private static void listed(List<String> ids, String id) {
        if (ids.size() < MAX_LISTED) {
            ids.add(id);
        }
    }
}
