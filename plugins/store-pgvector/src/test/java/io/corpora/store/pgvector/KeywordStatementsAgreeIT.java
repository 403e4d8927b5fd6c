package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The keyword leg's three statements give one ranking: the ones that sum IDF from (term, row) pairs — taken from the GIN
 * index's postings ({@link PgVectorStore#keywordSqlFromPostings}) or from the namespace's rows, each tsvector read once
 * ({@link PgVectorStore#keywordSqlFromNamespace}) — and read only the rows that can reach the top return exactly the ids
 * and scores of the one that tests every matching row ({@link PgVectorStore#keywordSqlPerRow}), for random queries over
 * a corpus of a small vocabulary (so rows share terms and tie), with filters, an embedder, a minimum score and several
 * k, beside other namespaces whose rows must count for none.
 */
class KeywordStatementsAgreeIT {

    @RegisterExtension
    static final ItTable TABLE = new ItTable("it_keyword_agree");
    private static final Namespace NS = Namespace.of("agree");
    private static final Namespace OTHER = Namespace.of("agree-other");
    private static final Namespace NEAR_TIE = Namespace.of("agree-near-tie");
    /** Above {@link PgVectorStore#KEYWORD_SCAN_MAX_ROWS}: its searches take the postings statement. */
    private static final Namespace LARGE = Namespace.of("agree-large");
    private static final List<String> WORDS = List.of("lodging", "policy", "travel", "expense", "receipt", "manager",
            "approval", "hotel", "flight", "meal", "budget", "invoice", "audit", "limit", "night", "trip");
    /** Query words no row holds: their document frequency is 0 and they must change no score. */
    private static final List<String> ABSENT = List.of("zeppelin", "nonetheless");
    private static final long SEED = 20261205L;
    private static final int NEAR_TIE_ROWS = 410;

    @BeforeAll
    static void load() throws Exception {
        if (!TestDatabase.configured()) {
            return;
        }
        TestDatabase.dropTable(TABLE.name);
        Random random = new Random(SEED);
        try (PgVectorStore store = open()) {
            store.upsert(NS, rows("a", 800, random));
            store.upsert(OTHER, rows("b", 400, random));
            store.upsert(NEAR_TIE, nearTie());
            store.upsert(LARGE, rows("c", PgVectorStore.KEYWORD_SCAN_MAX_ROWS + 100, random));
        }
    }

    /** Rows of one to six vocabulary words (repeats allowed, so ts_rank_cd differs), metadata n in 0..2, two embedders. */
    private static List<EmbeddedChunk> rows(String prefix, int count, Random random) {
        List<EmbeddedChunk> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int length = 1 + random.nextInt(6);
            StringBuilder text = new StringBuilder();
            for (int w = 0; w < length; w++) {
                text.append(w == 0 ? "" : " ").append(WORDS.get(random.nextInt(WORDS.size())));
            }
            Map<String, Object> metadata = Map.of("n", i % 3, ReservedKeys.EMBEDDER, i % 4 == 0 ? "model-b" : "model-a");
            rows.add(new EmbeddedChunk(new Chunk(prefix + i, "doc-" + prefix + (i / 10), i % 10, text.toString(), List.of(), metadata), null));
        }
        return rows;
    }

    /**
     * 410 rows: "a" holds hotel and audit once (document frequencies 95 and 108), "b" holds budget and invoice twenty
     * times each (90 and 114); the others hold one of the four words or none. a's IDF sum is 4.8·10⁻⁵ above b's, and
     * b's tie-break (ts_rank_cd 0.8 against 0.17, times 10⁻⁴) is 6.3·10⁻⁵ above a's: b ranks first.
     */
    private static List<EmbeddedChunk> nearTie() {
        List<EmbeddedChunk> rows = new ArrayList<>();
        rows.add(keywordRow("a", "hotel audit"));
        rows.add(keywordRow("b", "budget invoice ".repeat(20).trim()));
        Map<String, Integer> others = Map.of("hotel", 94, "audit", 107, "budget", 89, "invoice", 113);
        others.forEach((word, count) -> {
            for (int i = 0; i < count; i++) {
                rows.add(keywordRow(word + i, word));
            }
        });
        while (rows.size() < NEAR_TIE_ROWS) {
            rows.add(keywordRow("filler" + rows.size(), "lorem"));
        }
        return rows;
    }

    private static EmbeddedChunk keywordRow(String id, String text) {
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, text, List.of(), Map.of()), null);
    }

    /** Sizes remembered for an hour: a loaded machine must not forget the verdicts a test reads back. */
    private static PgVectorStore open() {
        return TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, "4", PgVectorOptions.NULLABLE_EMBEDDINGS, "true",
                PgVectorOptions.EXACT_SEARCH_RECHECK_MILLIS, "3600000"));
    }

    @Test
    void everyStatementRanksEveryQueryAlike() throws Exception {
        Random random = new Random(SEED + 1);
        int compared = 0;
        int nonEmpty = 0;
        try (PgVectorStore store = open(); Connection connection = TestDatabase.connect()) {
            for (int q = 0; q < 120; q++) {
                SearchRequest request = randomRequest(random);
                KeywordQuery query = KeywordQuery.parse(request.text(), StopWords.of(List.of("english")));
                assertFalse(query.hasConstraints());
                List<String> fromPostings = run(connection, store.keywordSqlFromPostings(NS, request, query));
                List<String> fromNamespace = run(connection, store.keywordSqlFromNamespace(NS, request, query));
                List<String> perRow = run(connection, store.keywordSqlPerRow(NS, request, query));
                String described = "query '" + request.text() + "', k " + request.topK() + ", filter " + request.filter() + ", embedder "
                        + request.embedderId() + ", minScore " + request.minScore();
                assertEquals(perRow, fromPostings, "from postings, " + described);
                assertEquals(perRow, fromNamespace, "from the namespace's rows, " + described);
                compared++;
                nonEmpty += perRow.isEmpty() ? 0 : 1;
            }
        }
        assertEquals(120, compared);
        assertTrue(nonEmpty > 100, "most queries find rows, so the comparison compares rankings: " + nonEmpty);
    }

    /** A plain-term search reads a small namespace's rows, and a larger one's postings; both return the ranking. */
    @Test
    void theDefaultSearchChoosesItsStatementByTheNamespaceSize() throws Exception {
        SearchRequest request = SearchRequest.keyword("hotel policy audit", 5, MetadataFilter.all(), null, null);
        KeywordQuery query = KeywordQuery.parse(request.text(), StopWords.of(List.of("english")));
        try (PgVectorStore store = open(); Connection connection = TestDatabase.connect()) {
            assertEquals(store.keywordSqlFromNamespace(NS, request, query).text(), store.keywordSql(NS, request, query, true).text());
            assertEquals(store.keywordSqlFromPostings(NS, request, query).text(), store.keywordSql(NS, request, query, false).text());
            KeywordQuery phrase = KeywordQuery.parse("\"hotel policy\" audit", StopWords.of(List.of("english")));
            assertEquals(store.keywordSqlPerRow(NS, request, phrase).text(), store.keywordSql(NS, request, phrase, true).text(),
                    "a phrase is tested row by row whatever the size");
            for (Namespace namespace : List.of(NS, LARGE)) {
                List<String> expected = run(connection, store.keywordSqlPerRow(namespace, request, query));
                List<String> searched = store.search(namespace, request).stream().map(h -> h.chunk().id() + " " + h.score()).toList();
                assertEquals(expected, searched, namespace.toString());
                assertFalse(searched.isEmpty());
            }
            assertEquals(Boolean.TRUE, store.sizesForTest().isWithin(NS, null, PgVectorStore.KEYWORD_SCAN_MAX_ROWS), "800 rows: read once each");
            assertEquals(Boolean.FALSE, store.sizesForTest().isWithin(LARGE, null, PgVectorStore.KEYWORD_SCAN_MAX_ROWS), "2,100 rows: from the postings");
            assertEquals(0, store.deleteDocument(NS, "no-such-document"));
            assertEquals(null, store.sizesForTest().isWithin(NS, null, PgVectorStore.KEYWORD_SCAN_MAX_ROWS),
                    "a write to the namespace, even one that changes nothing, makes the next search count again");
            assertEquals(Boolean.FALSE, store.sizesForTest().isWithin(LARGE, null, PgVectorStore.KEYWORD_SCAN_MAX_ROWS));
        }
    }

    @Test
    void aRowJustBelowTheKthSumIsReturnedWhenItsTieBreakLiftsItAbove() throws Exception {
        double n = NEAR_TIE_ROWS + 1;
        double sumA = Math.log(n / 95.5) + Math.log(n / 108.5);
        double sumB = Math.log(n / 90.5) + Math.log(n / 114.5);
        assertTrue(sumA > sumB && sumA - sumB < 1e-4, "the setup: a's IDF sum just above b's, " + sumA + " vs " + sumB);
        SearchRequest request = SearchRequest.keyword("hotel audit budget invoice", 1, MetadataFilter.all(), null, null);
        KeywordQuery query = KeywordQuery.parse(request.text(), StopWords.of(List.of("english")));
        try (PgVectorStore store = open(); Connection connection = TestDatabase.connect()) {
            List<String> perRow = run(connection, store.keywordSqlPerRow(NEAR_TIE, request, query));
            assertEquals(1, perRow.size());
            assertTrue(perRow.get(0).startsWith("b "), "the reference ranks b first: " + perRow);
            assertEquals(perRow, run(connection, store.keywordSqlFromPostings(NEAR_TIE, request, query)),
                    "a row whose sum is under the k-th best is still read for the tie-break when it is within 10⁻⁴ of it");
            assertEquals(perRow, run(connection, store.keywordSqlFromNamespace(NEAR_TIE, request, query)), "the same, from the namespace's rows");
        }
    }

    private static SearchRequest randomRequest(Random random) {
        List<String> words = new ArrayList<>();
        int length = 1 + random.nextInt(5);
        for (int i = 0; i < length; i++) {
            words.add(random.nextInt(8) == 0 ? ABSENT.get(random.nextInt(ABSENT.size())) : WORDS.get(random.nextInt(WORDS.size())));
        }
        int[] ks = {1, 3, 10, 50};
        int k = ks[random.nextInt(ks.length)];
        MetadataFilter filter = switch (random.nextInt(4)) {
            case 0 -> MetadataFilter.eq("n", 1);
            case 1 -> MetadataFilter.not(MetadataFilter.eq("n", 2));
            default -> MetadataFilter.all();
        };
        String embedder = random.nextInt(3) == 0 ? "model-b" : random.nextBoolean() ? "model-a" : null;
        Double minScore = random.nextInt(5) == 0 ? 2.0 + random.nextDouble() * 4 : null;
        return SearchRequest.keyword(String.join(" ", words), k, filter, minScore, embedder);
    }

    /** The statement's ids and scores, in order. */
    private static List<String> run(Connection connection, SqlFragment sql) throws Exception {
        return TestDatabase.rows(connection, sql, row -> row.getString(1) + " " + row.getDouble("score"));
    }
}
