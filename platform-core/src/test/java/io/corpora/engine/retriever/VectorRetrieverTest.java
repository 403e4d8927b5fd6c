package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The vector leg against the SPI test kit's exact reference store. */
class VectorRetrieverTest {

    private static final Namespace ACME = Namespace.of("acme");

    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
    private TestEmbedder embedder;
    private VectorRetriever retriever;

    @BeforeEach
    void indexFourChunks() {
        embedder = TestEmbedder.table("table-2d", 2).put("east", 1, 0).put("north-east", 1, 1).put("north", 0, 1).put("west", -1, 0.01f)
                .put("q-east", 1, 0.05f).build();
        ChunkIndexer indexer = new ChunkIndexer(store, ACME, embedder, new HeadingContextualizer());
        indexer.index(List.of(chunk("e", "east", Map.of("kind", "x", "source", "compass.md")),
                chunk("ne", "north-east", Map.of("kind", "y")), chunk("n", "north", Map.of("kind", "x")),
                chunk("w", "west", Map.of("kind", "x"))));
        retriever = new VectorRetriever(store, ACME, embedder);
    }

    private static Chunk chunk(String documentId, String text, Map<String, Object> metadata) {
        return new Chunk(documentId + ":0", documentId, 0, text, List.of(), metadata);
    }

    @Test
    void returnsNearestFirstWithContractScoresAndCitableMetadata() {
        RetrievalResult result = retriever.retrieve("q-east", RetrieveOptions.topK(3));
        assertEquals(List.of("e:0", "ne:0", "n:0"), result.ids());
        assertTrue(Passages.inRankOrder(result.passages()));
        Passage best = result.passages().get(0);
        assertTrue(best.score() > 0.99 && best.score() <= 1.0, "cosine contract score (1+cos)/2: " + best.score());
        assertEquals("compass.md", best.source());
        assertEquals("ne", result.passages().get(1).source(), "source falls back to the document id");
        assertEquals("e", best.metadata().get(PassageKeys.DOCUMENT));
        assertEquals(0, best.metadata().get(PassageKeys.CHUNK_INDEX));
        assertEquals(embedder.fingerprint().id(), result.diagnostics().embedderId());
        assertEquals(3, result.diagnostics().leg("vector").orElseThrow().candidates());
        assertTrue(result.diagnostics().leg("embed").isPresent());
    }

    @Test
    void minScoreIsAppliedBeforeTopKAndMayLeaveNothing() {
        double floor = VectorSimilarity.fromCosine(0.9);
        RetrievalResult some = retriever.retrieve("q-east", new RetrieveOptions(3, MetadataFilter.all(), floor, null));
        assertEquals(List.of("e:0"), some.ids(), "only one chunk is within cos 0.9 of the query; topK 3 is not filled up");
        RetrievalResult none = retriever.retrieve("q-east", new RetrieveOptions(3, MetadataFilter.all(), 1.5, null));
        assertEquals(List.of(), none.ids());
    }

    @Test
    void theFilterUsesMetadataFilterSemantics() {
        RetrievalResult result = retriever.retrieve("q-east", RetrieveOptions.topK(4).withFilter(MetadataFilter.eq("kind", "x")));
        assertEquals(List.of("e:0", "n:0", "w:0"), result.ids());
    }

    @Test
    void seesOnlyChunksOfItsEmbedderFingerprint() {
        Chunk foreign = new Chunk("f:0", "f", 0, "foreign", List.of(), Map.of(ReservedKeys.EMBEDDER, "other-model.2.0000000000000000"));
        store.upsert(ACME, List.of(new EmbeddedChunk(foreign, new float[] {1, 0.05f})));
        assertEquals(List.of("e:0", "ne:0", "n:0", "w:0"), retriever.retrieve("q-east", RetrieveOptions.topK(10)).ids());
    }

    @Test
    void anotherNamespaceIsNeverSearched() {
        VectorRetriever other = new VectorRetriever(store, Namespace.of("globex"), embedder);
        assertEquals(List.of(), other.retrieve("q-east", RetrieveOptions.topK(10)).ids());
    }

    @Test
    void aMismatchedFingerprintIsRefusedAtConstruction() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new VectorRetriever(store, ACME, embedder, "some-other-model.2.0123456789abcdef"));
        assertTrue(e.getMessage().contains("cannot search chunks embedded by some-other-model"), e.getMessage());
    }

    @Test
    void aBlankQueryIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> retriever.retrieve("  ", RetrieveOptions.topK(3)));
    }

    @Test
    void aStoreWithoutVectorSearchIsRefusedNamingTheCapability() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new VectorRetriever(new RecordingKeywordStore(List.of()), ACME, embedder));
        assertTrue(e.getMessage().contains("VECTOR_SEARCH"), e.getMessage());
    }

    @Test
    void theBudgetRefusesWholePassagesInRankOrderAndRecordsCharsUsed() {
        // texts: east (4), north-east (10), north (5), west (4)
        RetrievalResult result = retriever.retrieve("q-east", RetrieveOptions.topK(4).withMaxChars(10));
        assertEquals(List.of("e:0", "n:0"), result.ids());
        List<Refusal> refusals = result.diagnostics().refusals(Refusal.Reason.OVER_BUDGET);
        assertEquals(List.of("ne:0", "w:0"), refusals.stream().map(Refusal::passageId).toList());
        assertEquals(4, refusals.get(0).charsUsed());
        assertEquals(10, refusals.get(0).chars());
        assertEquals(9, refusals.get(1).charsUsed());
        assertEquals(2, result.diagnostics().rejected());
    }
}
