package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.chunk.Chunkers;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.testkit.ReferenceVectorStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Neighbour windows over real chunker output held in the reference store. */
class NeighborWindowExpanderTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final String TEXT = buildText();

    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 1);
    private List<Chunk> chunks;

    private static String buildText() {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 60; i++) {
            b.append("Sentence number ").append(i).append(" says something. ");
        }
        return b.toString().strip();
    }

    @BeforeEach
    void indexOneDocumentInManyChunks() {
        chunks = new Chunkers(ChunkingOptions.of(200, 40)).chunk("manual", LoadedDocument.prose(TEXT));
        List<EmbeddedChunk> embedded = new ArrayList<>();
        for (Chunk c : chunks) {
            Chunk withPart = c.withMetadata(Map.of("part", c.index() % 2 == 0 ? "even" : "odd"));
            embedded.add(new EmbeddedChunk(withPart, new float[] {1}));
        }
        store.upsert(ACME, embedded);
        assertTrue(chunks.size() >= 8, "enough chunks for windows: " + chunks.size());
    }

    private FixedRetriever hits(int... indexes) {
        List<Passage> passages = new ArrayList<>();
        for (int i = 0; i < indexes.length; i++) {
            Chunk c = chunks.get(indexes[i]);
            passages.add(Passages.fromChunk(c.withMetadata(Map.of("part", c.index() % 2 == 0 ? "even" : "odd")), 1.0 - i * 0.1));
        }
        return new FixedRetriever("base", passages);
    }

    @Test
    void aHitGrowsToItsNeighboursWithoutRepeatingTheOverlap() {
        RetrievalResult result = new NeighborWindowExpander(hits(4), store, ACME, 1).retrieve("q", RetrieveOptions.topK(5));
        Passage window = result.passages().get(0);
        assertEquals(chunks.get(4).id(), window.id());
        assertEquals(List.of(3, 5), window.metadata().get(PassageKeys.WINDOW));
        String expected = TEXT.substring(TEXT.indexOf(chunks.get(3).text()), TEXT.indexOf(chunks.get(5).text()) + chunks.get(5).text().length());
        assertEquals(expected, window.text(), "the window is the original text span, overlap not repeated");
    }

    @Test
    void overlappingWindowsOfOneDocumentMergeIntoTheBetterRankedHit() {
        RetrievalResult result = new NeighborWindowExpander(hits(4, 6, 0), store, ACME, 1).retrieve("q", RetrieveOptions.topK(5));
        assertEquals(List.of(chunks.get(4).id(), chunks.get(0).id()), result.ids());
        assertEquals(List.of(3, 7), result.passages().get(0).metadata().get(PassageKeys.WINDOW));
        assertEquals(List.of(0, 1), result.passages().get(1).metadata().get(PassageKeys.WINDOW));
    }

    @Test
    void neighboursOutsideTheFilterAreNotRevealed() {
        RetrievalResult result = new NeighborWindowExpander(hits(4), store, ACME, 1)
                .retrieve("q", RetrieveOptions.topK(5).withFilter(MetadataFilter.eq("part", "even")));
        Passage window = result.passages().get(0);
        assertEquals(List.of(4, 4), window.metadata().get(PassageKeys.WINDOW));
        assertFalse(window.text().contains(chunks.get(5).text()));
    }

    @Test
    void theBudgetAppliesToTheExpandedPassages() {
        int oneWindow = new NeighborWindowExpander(hits(4), store, ACME, 1).retrieve("q", RetrieveOptions.topK(5))
                .passages().get(0).text().length();
        RetrievalResult result = new NeighborWindowExpander(hits(4, 0), store, ACME, 1)
                .retrieve("q", RetrieveOptions.topK(5).withMaxChars(oneWindow));
        assertEquals(List.of(chunks.get(4).id()), result.ids());
        assertEquals(oneWindow, result.diagnostics().refusals(Refusal.Reason.OVER_BUDGET).get(0).charsUsed());
    }

    @Test
    void appendWithoutOverlapIgnoresCoincidentalShortMatches() {
        StringBuilder b = new StringBuilder("we went to the");
        NeighborWindowExpander.appendWithoutOverlap(b, "the end");
        assertEquals("we went to the the end", b.toString());
    }
}
