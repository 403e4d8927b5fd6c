package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class MmrRetrieverTest {

    private static final Namespace ACME = Namespace.of("acme");
    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
    private TestEmbedder embedder;
    private VectorRetriever vectors;

    @BeforeEach
    void nearDuplicatesAndADifferentAngle() {
        embedder = TestEmbedder.table("mmr", 2).put("dup-1", 1, 0.10f).put("dup-2", 1, 0.11f).put("other", 0.6f, 0.8f).put("q", 1, 0.3f).build();
        List<Chunk> chunks = List.of(chunk("dup-1"), chunk("dup-2"), chunk("other"));
        new ChunkIndexer(store, ACME, embedder, new HeadingContextualizer()).index(chunks);
        vectors = new VectorRetriever(store, ACME, embedder);
    }

    private static Chunk chunk(String text) {
        return new Chunk(text + ":0", text, 0, text, List.of(), Map.of());
    }

    @Test
    void pureRelevanceKeepsTheNearDuplicates() {
        RetrievalResult result = new MmrRetriever(vectors, 1.0, 10).retrieve("q", RetrieveOptions.topK(2));
        assertEquals(List.of("dup-2:0", "dup-1:0"), result.ids());
    }

    @Test
    void diversityReplacesTheSecondDuplicateAndTheOutputKeepsTheScoreContract() {
        RetrievalResult result = new MmrRetriever(vectors, 0.3, 10).retrieve("q", RetrieveOptions.topK(2));
        assertEquals(List.of("dup-2:0", "other:0"), result.ids());
        assertTrue(Passages.inRankOrder(result.passages()));
        assertEquals(2, result.diagnostics().leg("mmr").orElseThrow().candidates());
    }

    @Test
    void selectionOrderFollowsMarginalRelevance() {
        MaximalMarginalRelevance mmr = new MaximalMarginalRelevance(0.5);
        List<MaximalMarginalRelevance.Candidate> candidates = List.of(
                new MaximalMarginalRelevance.Candidate(new Passage("a", "a", 0.9, "", Map.of()), new float[] {1, 0}),
                new MaximalMarginalRelevance.Candidate(new Passage("b", "b", 0.89, "", Map.of()), new float[] {1, 0.01f}),
                new MaximalMarginalRelevance.Candidate(new Passage("c", "c", 0.5, "", Map.of()), new float[] {0, 1}));
        List<String> picked = mmr.select(new float[] {1, 0.2f}, candidates, 3).stream().map(c -> c.passage().id()).toList();
        assertEquals(List.of("b", "c", "a"), picked);
        assertThrows(IllegalArgumentException.class, () -> new MaximalMarginalRelevance(1.5));
    }
}
