package io.corpora.retrieval;

/**
 * Counts the terms of a keyword query the way the stores' analyzers could at most make them: every run of letters and
 * digits (with the marks that combine into them) is one term, and every Han ideograph, hiragana and katakana character
 * is one on its own (Lucene's standard tokenizer emits each ideograph as a token). Separators do not matter —
 * {@code a,b,c} is three terms, as it is to the analyzers — so the count bounds the clauses a store builds.
 */
public final class QueryTerms {

    private QueryTerms() {}

    public static int count(String query) {
        int terms = 0;
        boolean inWord = false;
        for (int i = 0; i < query.length(); ) {
            int cp = query.codePointAt(i);
            i += Character.charCount(cp);
            if (isTermOfItsOwn(cp)) {
                terms++;
                inWord = false;
            } else if (Character.isLetterOrDigit(cp) || (inWord && isCombiningMark(cp))) {
                if (!inWord) {
                    terms++;
                    inWord = true;
                }
            } else {
                inWord = false;
            }
        }
        return terms;
    }

    private static boolean isTermOfItsOwn(int cp) {
        if (Character.isIdeographic(cp)) {
            return true;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(cp);
        return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA
                || script == Character.UnicodeScript.KATAKANA;
    }

    private static boolean isCombiningMark(int cp) {
        int type = Character.getType(cp);
        return type == Character.NON_SPACING_MARK || type == Character.COMBINING_SPACING_MARK || type == Character.ENCLOSING_MARK;
    }
}
