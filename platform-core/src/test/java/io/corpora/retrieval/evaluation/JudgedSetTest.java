package io.corpora.retrieval.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JudgedSetTest {

    private static final Map<String, String> QUERIES = new LinkedHashMap<>(Map.of("q1", "first", "q2", "second", "q3", "unjudged"));

    @Test
    void readsBeirAndTrecQrelsAndKeepsOnlyJudgedQueries() {
        JudgedSet beir = JudgedSet.of(QUERIES, "query-id\tcorpus-id\tscore\nq1\td1\t2\nq1\td2\t0\nq2\td3\t1\n");
        JudgedSet trec = JudgedSet.of(QUERIES, "q1 0 d1 2\nq1 0 d2 0\r\nq2 Q0 d3 1\n");
        assertEquals(beir, trec);
        assertEquals(List.of("q1", "q2"), beir.queries().stream().map(JudgedSet.JudgedQuery::id).sorted().toList());
        assertEquals(Map.of("d1", 2, "d2", 0), beir.queries().stream().filter(q -> q.id().equals("q1")).findFirst().orElseThrow().grades());
    }

    @Test
    void badQrelsNameTheLine() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "q1 d1 1\nq2 d3 x")).getMessage().contains("line 2"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "q1 d1 1\nq1 d1 2")).getMessage().contains("twice"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "q1 d1 1 extra more")).getMessage().contains("fields"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "q1 d1 -1")).getMessage().contains("outside"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "q7 d1 1")).getMessage().contains("'q7'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> JudgedSet.of(QUERIES, "")).getMessage().contains("no query"));
    }

    @Test
    void theFingerprintIgnoresOrderButNotATextOrAGrade() {
        JudgedSet set = JudgedSet.of(QUERIES, "q1 d1 2\nq1 d2 0\nq2 d3 1\n");
        Map<String, String> reversed = new LinkedHashMap<>();
        reversed.put("q2", "second");
        reversed.put("q1", "first");
        assertEquals(set.fingerprint(), JudgedSet.of(reversed, "q2 d3 1\nq1 d2 0\nq1 d1 2\n").fingerprint());
        assertNotEquals(set.fingerprint(), JudgedSet.of(QUERIES, "q1 d1 1\nq1 d2 0\nq2 d3 1\n").fingerprint(), "a grade changed");
        assertNotEquals(set.fingerprint(), JudgedSet.of(Map.of("q1", "first!", "q2", "second"), "q1 d1 2\nq1 d2 0\nq2 d3 1\n").fingerprint(),
                "a text changed");
    }
}
