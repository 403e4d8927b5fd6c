package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.testkit.ReferenceVectorStore;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeywordRetrieverTest {

    private static ScoredChunk hit(String doc, double score) {
        return new ScoredChunk(new Chunk(doc + ":0", doc, 0, "text " + doc, List.of(), Map.of()), score);
    }

    @Test
    void delegatesToTheStoresKeywordSearchWithFloorFilterAndGeneration() {
        RecordingKeywordStore store = new RecordingKeywordStore(List.of(hit("a", 7.5), hit("b", 3.0)));
        KeywordRetriever retriever = new KeywordRetriever(store, Namespace.of("acme", "legal"), "bge.384.0123456789abcdef");
        MetadataFilter filter = MetadataFilter.eq("lang", "en");
        RetrievalResult result = retriever.retrieve("hotel cap", new RetrieveOptions(7, filter, 2.0, null));

        SearchRequest request = store.requests.get(0);
        assertEquals(SearchMode.KEYWORD, request.mode());
        assertEquals("hotel cap", request.text());
        assertEquals(7, request.topK());
        assertEquals(2.0, request.minScore(), "the floor is pushed into the store");
        assertEquals(filter, request.filter());
        assertEquals("bge.384.0123456789abcdef", request.embedderId());
        assertEquals(Namespace.of("acme", "legal"), store.namespaces.get(0));
        assertEquals(List.of("a:0", "b:0"), result.ids());
        assertEquals(7.5, result.passages().get(0).score(), "BM25 scores pass through unchanged");
    }

    @Test
    void aConsistencyTokenReachesTheStoreSearchAndNoneStaysNone() {
        RecordingKeywordStore store = new RecordingKeywordStore(List.of(hit("a", 1.0)));
        KeywordRetriever retriever = new KeywordRetriever(store, Namespace.of("acme"), null);
        retriever.retrieve("hotel cap", RetrieveOptions.topK(3).withConsistencyToken("pg:0/16B3748").withMinScore(1.0).withTopK(4));
        retriever.retrieve("hotel cap", RetrieveOptions.topK(3));
        assertEquals("pg:0/16B3748", store.requests.get(0).consistencyToken(), "kept through the options' with-methods");
        assertEquals(4, store.requests.get(0).topK());
        assertEquals(null, store.requests.get(1).consistencyToken());
    }

    @Test
    void aKeywordOnlyCorpusSearchesWithoutAFingerprint() {
        RecordingKeywordStore store = new RecordingKeywordStore(List.of());
        new KeywordRetriever(store, Namespace.of("acme")).retrieve("q", RetrieveOptions.topK(3));
        assertNull(store.requests.get(0).embedderId());
    }

    @Test
    void storeTiesAndDisorderAreResortedToTheScoreContract() {
        RecordingKeywordStore store = new RecordingKeywordStore(List.of(hit("c", 1.0), hit("b", 2.0), hit("a", 2.0)));
        RetrievalResult result = new KeywordRetriever(store, Namespace.of("acme")).retrieve("q", RetrieveOptions.topK(3));
        assertEquals(List.of("a:0", "b:0", "c:0"), result.ids());
    }

    @Test
    void aStoreWithoutKeywordSearchIsRefusedNamingTheCapability() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KeywordRetriever(new ReferenceVectorStore(VectorSimilarity.COSINE, 2), Namespace.of("acme")));
        assertTrue(e.getMessage().contains("KEYWORD_SEARCH"), e.getMessage());
    }
}
