package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.retriever.IsolationReport;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.ReferenceVectorStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The guard against a store that misbehaves: chunks stamped for another tenant, partition or embedder are written
 * straight into the searched namespace (as a buggy store plugin could return them), and must never come out.
 */
class IsolationGuardTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final String EMBEDDER = "model.2.abc";
    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);

    @Test
    void dropsForeignAndUnstampedHitsAndCountsThem() {
        write(chunk("own", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 0.9f));
        write(chunk("other-tenant", "globex", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 1.0f));
        write(chunk("other-partition", "acme", "legal", EMBEDDER, 1, 1.0f));
        write(chunk("other-embedder", "acme", Namespace.DEFAULT_PARTITION, "old.2.def", 1, 1.0f));
        write(new EmbeddedChunk(new Chunk("unstamped", "unstamped", 0, "t", List.of(), Map.of()), new float[] {1, 0}));

        IsolationGuard guard = new IsolationGuard(store, ACME, 4);
        List<ScoredChunk> hits = guard.search(ACME, SearchRequest.vector(new float[] {1, 0}, 5, MetadataFilter.all(), null, EMBEDDER));

        assertEquals(List.of("own"), ids(hits));
        // The store honours the embedder filter, so 3 hits come back; 2 are foreign and the short result is
        // searched once more, wider (3 more examined, 2 more rejected).
        assertEquals(new IsolationReport(6, 4, 1, false), guard.report());
        EmbeddedChunk otherEmbedder = chunk("x", "acme", Namespace.DEFAULT_PARTITION, "old.2.def", 1, 1f);
        assertFalse(guard.belongs(otherEmbedder.chunk(), EMBEDDER));
        assertTrue(guard.belongs(otherEmbedder.chunk(), null));
    }

    @Test
    void overFetchesOnceWhenDropsLeaveTheSearchShortAndSaysWhenRecallMayBeReduced() {
        for (int i = 0; i < 10; i++) {
            write(chunk("foreign-" + i, "globex", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 1.0f));
        }
        for (int i = 0; i < 3; i++) {
            write(chunk("own-" + i, "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 0.2f));
        }
        SearchRequest top3 = SearchRequest.vector(new float[] {1, 0}, 3, MetadataFilter.all(), null, EMBEDDER);

        IsolationGuard wide = new IsolationGuard(store, ACME, 16);
        assertEquals(List.of("own-0", "own-1", "own-2"), ids(wide.search(ACME, top3)));
        assertEquals("full", wide.report().recall());

        IsolationGuard narrow = new IsolationGuard(store, ACME, 2);
        assertEquals(List.of(), ids(narrow.search(ACME, top3)));
        assertEquals("potentially-reduced", narrow.report().recall());
        assertEquals(9, narrow.report().examined()); // 3, then 6 on the wider search
    }

    @Test
    void withARegistryOnlyTheActiveVersionOfADocumentIsReturned() {
        write(chunk("doc@v1", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 0.9f));
        write(chunk("doc@v2", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 2, 1.0f));
        Map<String, Integer> active = new HashMap<>(Map.of("doc", 1));

        IsolationGuard guard = new IsolationGuard(store, ACME, 4, ids -> active);
        SearchRequest request = SearchRequest.vector(new float[] {1, 0}, 5, MetadataFilter.all(), null, EMBEDDER);
        assertEquals(List.of("doc@v1"), ids(guard.search(ACME, request)));

        active.put("doc", 2);
        assertEquals(List.of("doc@v2"), ids(new IsolationGuard(store, ACME, 4, ids -> active).search(ACME, request)));
        assertEquals(List.of("doc@v2"), new IsolationGuard(store, ACME, 4, ids -> active).documentChunks(ACME, "doc").stream().map(Chunk::id).toList());
    }

    @Test
    void eachDocumentsActiveVersionIsReadOncePerRequest() {
        write(chunk("a@v1", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 0.9f));
        write(chunk("b@v1", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 0.8f));
        write(chunk("c@v2", "acme", Namespace.DEFAULT_PARTITION, EMBEDDER, 2, 0.7f));
        Map<String, Integer> active = new HashMap<>(Map.of("a", 1, "b", 1, "c", 1));
        List<List<String>> asked = new ArrayList<>();
        IsolationGuard guard = new IsolationGuard(store, ACME, 4, ids -> {
            asked.add(List.copyOf(ids));
            return active;
        });
        SearchRequest top2 = SearchRequest.vector(new float[] {1, 0}, 2, MetadataFilter.all(), null, EMBEDDER);
        SearchRequest top3 = SearchRequest.vector(new float[] {1, 0}, 3, MetadataFilter.all(), null, EMBEDDER);

        assertEquals(List.of("a@v1", "b@v1"), ids(guard.search(ACME, top2)));
        active.put("a", 2); // a replace activated meanwhile: this request keeps judging by what it read first
        assertEquals(List.of("a@v1", "b@v1"), ids(guard.search(ACME, top3)), "c's version 2 is not its active one");
        assertEquals(List.of(List.of("a", "b"), List.of("c")), asked, "only documents not asked before are asked");
        assertEquals(List.of("b@v1"), ids(new IsolationGuard(store, ACME, 4, ids -> active).search(ACME, top2)),
                "a new request reads the versions again");
    }

    @Test
    void refusesOtherNamespacesAndUnstampedWrites() {
        IsolationGuard guard = new IsolationGuard(store, ACME, 4);
        SearchRequest request = SearchRequest.vector(new float[] {1, 0}, 1, MetadataFilter.all(), null, null);
        assertThrows(IllegalStateException.class, () -> guard.search(Namespace.of("globex"), request));
        assertThrows(IllegalStateException.class, () -> guard.deleteNamespace(Namespace.of("acme", "legal")));
        EmbeddedChunk foreign = chunk("x", "globex", Namespace.DEFAULT_PARTITION, EMBEDDER, 1, 1f);
        assertThrows(IllegalStateException.class, () -> guard.upsert(ACME, List.of(foreign)));
        assertTrue(store.documentChunks(ACME, "x").isEmpty());
    }

    @Test
    void overFetchFactorIsBounded() {
        assertThrows(IllegalArgumentException.class, () -> new IsolationGuard(store, ACME, 0));
        assertThrows(IllegalArgumentException.class, () -> new IsolationGuard(store, ACME, 17));
    }

    /** A chunk whose id is also its document id (before '@'), stamped as given, pointing along x with weight {@code x}. */
    private static EmbeddedChunk chunk(String id, String tenant, String partition, String embedder, int version, float x) {
        Map<String, Object> metadata = new HashMap<>();
        metadata.put(ReservedKeys.TENANT, tenant);
        metadata.put(ReservedKeys.PARTITION, partition);
        metadata.put(ReservedKeys.EMBEDDER, embedder);
        metadata.put(ReservedKeys.VERSION, version);
        String documentId = id.contains("@") ? id.substring(0, id.indexOf('@')) : id;
        return new EmbeddedChunk(new Chunk(id, documentId, 0, "text of " + id, List.of(), metadata), new float[] {x, 1 - x});
    }

    private void write(EmbeddedChunk chunk) {
        store.upsert(ACME, List.of(chunk)); // raw, bypassing the guard: what a buggy store could hold
    }

    private static List<String> ids(List<ScoredChunk> hits) {
        List<String> ids = new ArrayList<>();
        hits.forEach(h -> ids.add(h.chunk().id()));
        return ids;
    }
}
