package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** How a keyword query is split before it reaches PostgreSQL (no database needed). */
class KeywordQueryTest {

    private static final StopWords ALL = StopWords.of(StopWords.BUNDLED);

    @Test
    void stopWordsOfTheQuerysLanguageAreDropped() {
        assertEquals(List.of("lodging", "policy"), KeywordQuery.parse("What is the lodging policy?", ALL).terms());
        assertEquals(List.of("política", "hospedagem", "funcionários"),
                KeywordQuery.parse("a política de hospedagem para os funcionários", ALL).terms());
        assertEquals(List.of("política", "alojamiento", "empleados"),
                KeywordQuery.parse("la política de alojamiento de los empleados", ALL).terms());
    }

    @Test
    void onlyTheDetectedLanguagesListApplies() {
        // "con" is a Spanish stop word but this is an English query: it stays a term.
        assertEquals(List.of("con", "artist", "tricks"), KeywordQuery.parse("the con artist and his tricks", ALL).terms());
    }

    @Test
    void withoutListsEveryWordIsATerm() {
        assertEquals(List.of("what", "is", "the", "policy"), KeywordQuery.parse("What is the policy", StopWords.none()).terms());
    }

    @Test
    void phrasesAndExclusionsAreSeparated() {
        KeywordQuery query = KeywordQuery.parse("\"lodging policy\" hotel -approval -\"x\" nights", ALL);
        assertEquals(List.of("lodging policy"), query.phrases());
        assertEquals(List.of("approval", "x"), query.excluded());
        assertEquals(List.of("hotel", "nights"), query.terms());
        assertEquals("\"lodging policy\" -approval -x", query.constraintText());
        assertEquals("\"lodging policy\" -approval -x hotel nights", query.strictText());
        assertEquals(List.of("hotel", "nights", "lodging", "policy"), query.scoredWords());
    }

    @Test
    void syntaxIsReducedToWords() {
        KeywordQuery query = KeywordQuery.parse("foo & !bar | (baz:* <-> 'qux'", StopWords.none());
        assertEquals(List.of("foo", "bar", "baz", "qux"), query.terms());
        assertTrue(KeywordQuery.parse("!!! ((( -- ", ALL).isEmpty());
        assertEquals(List.of("unclosed phrase"), KeywordQuery.parse("\"unclosed phrase", ALL).phrases());
        assertEquals(List.of("single"), KeywordQuery.parse("\"single\"", ALL).terms(), "a one-word phrase is a term");
        assertEquals(List.of("state", "art"), KeywordQuery.parse("state-of-the-art", ALL).terms());
    }

    @Test
    void termsAreBounded() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            text.append("w").append(i).append(' ');
        }
        assertEquals(KeywordQuery.MAX_TERMS, KeywordQuery.parse(text.toString(), ALL).terms().size());
    }
}
