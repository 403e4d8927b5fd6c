package io.corpora.answer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class CitationCheckTest {

    @Test
    void keepsMarkersOfGivenPassagesAndRemovesInventedOnes() {
        CitationCheck[] check = new CitationCheck[1];
        String clean = CitationCheck.check("Hotels are capped [2]. Taxis too [7][1]. See [0] and [12345].", 3, check);

        assertEquals("Hotels are capped [2]. Taxis too [1]. See  and [12345].", clean);
        assertEquals(List.of(2, 1), check[0].cited());
        assertEquals(2, check[0].removed(), "[7] and [0]; five digits are text, not a marker");
    }

    @Test
    void markersSplitAcrossDeltasAreJudgedWhole() {
        CitationCheck check = new CitationCheck(2);
        StringBuilder out = new StringBuilder();
        for (String piece : List.of("capped [", "1", "] and [", "9] but [x] and [[2] end [")) {
            out.append(check.accept(piece));
        }
        out.append(check.finish());

        assertEquals("capped [1] and  but [x] and [[2] end [", out.toString());
        assertEquals(List.of(1, 2), check.cited());
        assertEquals(1, check.removed());
    }

    @Test
    void anUnfinishedMarkerIsHeldBackUntilItIsDecided() {
        CitationCheck check = new CitationCheck(5);
        assertEquals("a ", check.accept("a [3"));
        assertEquals("[3] b", check.accept("] b"));
    }
}
