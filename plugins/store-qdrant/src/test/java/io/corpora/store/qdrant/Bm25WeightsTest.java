package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The keyword leg's sparse vectors. Qdrant's side: a sparse vector is "a list of non-zero elements and their indexes",
 * scored by dot product (https://qdrant.tech/documentation/manage-data/vectors/#sparse-vectors), and with the IDF modifier
 * "Qdrant uses the following formula to calculate the IDF modifier: IDF(q_i) = ln((N − n(q_i) + 0.5)/(n(q_i) + 0.5) + 1)",
 * N documents in the collection, n containing the element (https://qdrant.tech/documentation/manage-data/indexing/#idf-modifier).
 */
class Bm25WeightsTest {

    private static final Bm25Weights BM25 = new Bm25Weights(1.2, 0.75, 256);

    /** FNV-1a 32-bit test vectors of the FNV reference (http://www.isthe.com/chongo/tech/comp/fnv/). */
    @Test
    void termIndicesAreFnv1a32OfTheUtf8Bytes() {
        assertEquals(0x811c9dc5, Bm25Weights.index(""));
        assertEquals(0xe40c292c, Bm25Weights.index("a"));
        assertEquals(0xbf9cf968, Bm25Weights.index("foobar"));
    }

    @Test
    void termsAreLowerCasedLetterAndDigitRunsAndEachIdeographOrKanaAlone() {
        assertEquals(List.of("the", "hotel", "s", "b2b", "policy", "2024"), Bm25Weights.terms("The HOTEL's B2B-policy (2024)!"));
        assertEquals(List.of("東", "京", "タ", "ワ", "ー", "tokyo"), Bm25Weights.terms("東京タワー tokyo"));
        assertEquals(List.of("ação", "é"), Bm25Weights.terms("AÇÃO, é"));
        assertTrue(Bm25Weights.terms(" -- ,;. ").isEmpty());
        assertTrue(Bm25Weights.query("?!").isEmpty(), "a query of punctuation has no term: the store asks nothing");
    }

    @Test
    void indexedWeightsAreTheTermFrequencyPartOfBm25() {
        Bm25Weights.Sparse doc = BM25.document("lodging costs; lodging booked");
        double norm = 1 - 0.75 + 0.75 * 4 / 256.0;
        Map<Integer, Float> byIndex = byIndex(doc);
        assertEquals(3, byIndex.size());
        assertEquals(2 * 2.2 / (2 + 1.2 * norm), byIndex.get(Bm25Weights.index("lodging")), 1e-6);
        assertEquals(1 * 2.2 / (1 + 1.2 * norm), byIndex.get(Bm25Weights.index("costs")), 1e-6);
        for (int i = 1; i < doc.indices().size(); i++) {
            assertTrue(Integer.compareUnsigned(doc.indices().get(i - 1), doc.indices().get(i)) < 0, "indices ascend, unsigned, once each");
        }
    }

    @Test
    void queryTermsWeighOneEachEvenWhenRepeated() {
        Bm25Weights.Sparse query = Bm25Weights.query("Lodging lodging policy");
        assertEquals(Map.of(Bm25Weights.index("lodging"), 1f, Bm25Weights.index("policy"), 1f), byIndex(query));
    }

    /**
     * Qdrant's score of this store's vectors — Σ query weight × IDF × stored weight — is BM25 (k1 1.2, b 0.75): computed here
     * with Qdrant's documented IDF over the contract suite's keyword corpus, it ranks the chunk saying "lodging" twice first.
     */
    @Test
    void qdrantsIdfTimesTheStoredWeightsIsBm25AndRanksTheContractsCorpus() {
        List<String> corpus = List.of("The hotel lodging policy allows three nights.", "Expense reports are due monthly.",
                "Lodging costs above the limit need approval; lodging is booked centrally.",
                "Travel > Zeppelin\nTravel by train is preferred.");
        List<Map<Integer, Float>> stored = corpus.stream().map(text -> byIndex(BM25.document(text))).toList();
        Bm25Weights.Sparse query = Bm25Weights.query("lodging");
        double[] scores = new double[corpus.size()];
        for (int d = 0; d < corpus.size(); d++) {
            for (int q = 0; q < query.indices().size(); q++) {
                int index = query.indices().get(q);
                long containing = stored.stream().filter(s -> s.containsKey(index)).count();
                double idf = Math.log((corpus.size() - containing + 0.5) / (containing + 0.5) + 1);
                scores[d] += query.values().get(q) * idf * stored.get(d).getOrDefault(index, 0f);
            }
        }
        assertTrue(scores[2] > scores[0] && scores[0] > 0, "k#2 (twice) above k#0 (once): " + java.util.Arrays.toString(scores));
        assertEquals(0, scores[1]);
        assertEquals(0, scores[3]);
        double idf = Math.log((4 - 2 + 0.5) / (2 + 0.5) + 1);
        double lengthNorm = 1 - 0.75 + 0.75 * 11 / 256.0;
        assertEquals(idf * 2 * 2.2 / (2 + 1.2 * lengthNorm), scores[2], 1e-6, "textbook BM25 of the 11-term chunk");
    }

    /** "declinate" and "macallums" are a published FNV-1a 32-bit collision: their weights merge, they do not clash. */
    @Test
    void collidingTermsShareAnIndexAndTheirCountsAddUp() {
        assertEquals(Bm25Weights.index("declinate"), Bm25Weights.index("macallums"));
        Bm25Weights.Sparse doc = BM25.document("declinate macallums");
        assertEquals(1, doc.indices().size(), "one index for both terms");
        double norm = 1 - 0.75 + 0.75 * 2 / 256.0;
        assertEquals(2 * 2.2 / (2 + 1.2 * norm), doc.values().get(0), 1e-6, "counted as tf 2");
        assertEquals(List.of(2f), Bm25Weights.query("declinate macallums").values(), "two distinct query terms on one index weigh 2");
    }

    private static Map<Integer, Float> byIndex(Bm25Weights.Sparse sparse) {
        Map<Integer, Float> map = new HashMap<>();
        for (int i = 0; i < sparse.indices().size(); i++) {
            map.put(sparse.indices().get(i), sparse.values().get(i));
        }
        return map;
    }
}
