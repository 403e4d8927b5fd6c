package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The full-text leg on the real database: stop words, summed-IDF ranking, phrases, exclusions, strict mode. */
class FullTextSearchIT {

    @RegisterExtension
    static final ItTable TABLE = new ItTable("it_fulltext");
    private static final Namespace NS = Namespace.of("fulltext");
    private static final List<String> TEXTS = List.of(
            /* t0 */ "The hotel lodging policy allows three nights per trip.",
            /* t1 */ "Expense reports are due monthly; the policy is strict.",
            /* t2 */ "Lodging above the limit needs approval from a manager.",
            /* t3 */ "Policy on policy: every policy document has an owner.",
            /* t4 */ "Zeppelin travel is not reimbursed.",
            /* t5 */ "A política de hospedagem permite três noites.",
            /* t6 */ "O prazo de entrega para os pedidos é curto.",
            /* t7 */ "Receipts for meals are kept for seven years.");

    @BeforeAll
    static void load() throws Exception {
        if (!TestDatabase.configured()) {
            return;
        }
        TestDatabase.dropTable(TABLE.name);
        try (PgVectorStore store = open(Map.of())) {
            List<EmbeddedChunk> rows = new ArrayList<>();
            for (int i = 0; i < TEXTS.size(); i++) {
                // keyword-only chunks: no embedding needed for the full-text leg
                rows.add(new EmbeddedChunk(new Chunk("t" + i, "doc", i, TEXTS.get(i), List.of(), Map.of("n", i)), null));
            }
            store.upsert(NS, rows);
        }
    }

    private static PgVectorStore open(Map<String, String> more) {
        Map<String, String> options = new java.util.HashMap<>(Map.of(PgVectorOptions.DIMENSION, "4", PgVectorOptions.NULLABLE_EMBEDDINGS, "true"));
        options.putAll(more);
        return TestDatabase.open(TABLE.name, options);
    }

    private static List<String> search(PgVectorStore store, String query) {
        List<ScoredChunk> hits = store.search(NS, SearchRequest.keyword(query, 10, MetadataFilter.all(), null, null));
        for (int i = 1; i < hits.size(); i++) {
            assertTrue(hits.get(i - 1).score() >= hits.get(i).score(), "descending scores");
        }
        return hits.stream().map(h -> h.chunk().id()).toList();
    }

    @Test
    void documentFrequenciesAreCountedOncePerQueryWhateverPlanTheTableGets() throws Exception {
        // A table never analyzed (as a relocation's fresh target is) gets the plan that filters by tenant: the counts of
        // an inlined idf CTE then ran once per matching row. Materialized, they are one CTE scan, whatever the statistics.
        try (PgVectorStore store = open(Map.of()); var connection = TestDatabase.connect()) {
            SearchRequest request = SearchRequest.keyword("lodging policy", 10, MetadataFilter.all(), null, null);
            KeywordQuery query = KeywordQuery.parse(request.text(), StopWords.of(List.of("english")));
            String fromPostings = plan(connection, store.keywordSqlFromPostings(NS, request, query));
            assertTrue(fromPostings.contains("CTE pairs") && fromPostings.contains("CTE idf") && fromPostings.contains("CTE total"),
                    "the postings, document frequencies and namespace size are evaluated once:\n" + fromPostings);
            String perRow = plan(connection, store.keywordSqlPerRow(NS, request, query));
            assertTrue(perRow.contains("CTE df") && perRow.contains("CTE idf") && perRow.contains("CTE total"),
                    "the document-frequency CTEs are evaluated once, not inlined per row:\n" + perRow);
            assertEquals(List.of("t0", "t2", "t3", "t1"), search(store, "lodging policy"), "same ranking as before");
        }
    }

    private static String plan(java.sql.Connection connection, SqlFragment sql) throws Exception {
        SqlFragment explain = new SqlFragment().sql("EXPLAIN (ANALYZE, COSTS OFF) ").append(sql);
        return String.join("\n", TestDatabase.rows(connection, explain, row -> row.getString(1)));
    }

    @Test
    void rowsHoldingAnyTermRankBySummedIdfThenByTsRankCd() {
        try (PgVectorStore store = open(Map.of())) {
            assertTrue(store.capabilities().contains(StoreCapability.KEYWORD_SEARCH));
            // t0 holds both terms; "lodging" (2 rows) is rarer than "policy" (3 English rows), so t2 beats t1 and t3;
            // between t3 and t1 (policy only, equal IDF) ts_rank_cd prefers t3's three mentions.
            assertEquals(List.of("t0", "t2", "t3", "t1"), search(store, "what is the lodging policy"));
        }
    }

    @Test
    void stopWordsOfTheQuerysLanguageDoNotMatchOnTheirOwn() {
        try (PgVectorStore withLists = open(Map.of()); PgVectorStore withoutLists = open(Map.of(PgVectorOptions.STOP_WORDS, "none"))) {
            // t6 shares only Portuguese stop words (de, para, os) with the query.
            assertEquals(List.of("t5"), search(withLists, "política de hospedagem para os funcionários"));
            assertTrue(search(withoutLists, "política de hospedagem para os funcionários").contains("t6"),
                    "without the lists, the english configuration keeps Portuguese stop words as terms");
        }
    }

    @Test
    void phrasesAreRequiredAndExclusionsRemoveRows() {
        try (PgVectorStore store = open(Map.of())) {
            assertEquals(List.of("t0"), search(store, "\"lodging policy\""));
            assertEquals(List.of("t0"), search(store, "lodging -approval"));
            assertEquals(List.of("t3", "t1"), search(store, "policy -lodging"));
        }
    }

    @Test
    void withoutAnyTermFallbackEveryTermIsRequired() {
        try (PgVectorStore strict = open(Map.of(PgVectorOptions.ANY_TERM_FALLBACK, "false"))) {
            assertEquals(List.of("t0"), search(strict, "lodging policy"));
            assertEquals(List.of(), search(strict, "lodging zeppelin"));
        }
    }

    @Test
    void stemmingFollowsTheConfiguredLanguage() {
        try (PgVectorStore english = open(Map.of())) {
            assertEquals(List.of("t7"), search(english, "receipt"), "english stems receipts to receipt");
        }
    }

    @Test
    void filtersAndMinScoreApplyToTheKeywordLeg() {
        try (PgVectorStore store = open(Map.of())) {
            List<ScoredChunk> all = store.search(NS, SearchRequest.keyword("lodging policy", 10, MetadataFilter.all(), null, null));
            List<ScoredChunk> filtered = store.search(NS, SearchRequest.keyword("lodging policy", 10,
                    new MetadataFilter.Range("n", 2, true, null, false), null, null));
            assertEquals(List.of("t2", "t3"), filtered.stream().map(h -> h.chunk().id()).toList());
            double floor = all.get(1).score();
            List<ScoredChunk> floored = store.search(NS, SearchRequest.keyword("lodging policy", 10, MetadataFilter.all(), floor, null));
            assertEquals(List.of("t0", "t2"), floored.stream().map(h -> h.chunk().id()).toList());
        }
    }

    @Test
    void aStoreWithoutFullTextRefusesKeywordSearchClearly() {
        try (PgVectorStore store = open(Map.of(PgVectorOptions.FULL_TEXT, "false"))) {
            assertTrue(!store.capabilities().contains(StoreCapability.KEYWORD_SEARCH));
            UnsupportedOperationException e = org.junit.jupiter.api.Assertions.assertThrows(UnsupportedOperationException.class,
                    () -> store.search(NS, SearchRequest.keyword("policy", 5, MetadataFilter.all(), null, null)));
            assertTrue(e.getMessage().contains("fullText"));
        }
    }
}
