package io.corpora.store.pgvector;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A keyword query split the way web search engines read it: {@code "quoted phrases"} (required, in order),
 * {@code -word} (excluded), and the remaining plain terms (stop words of the query's language removed).
 * The phrases and exclusions are handed to PostgreSQL's {@code websearch_to_tsquery}; each plain term
 * becomes its own {@code plainto_tsquery} so rows holding any of them can be ranked by the terms they hold.
 */
record KeywordQuery(List<String> terms, List<String> phrases, List<String> excluded) {

    /** Bound on plain terms, so one query cannot build an unbounded SQL statement. */
    static final int MAX_TERMS = 32;

    static KeywordQuery parse(String text, StopWords stopWords) {
        List<String> phrases = new ArrayList<>();
        List<String> excluded = new ArrayList<>();
        List<String> plain = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '"') {
                int close = text.indexOf('"', i + 1);
                int end = close < 0 ? n : close;
                List<String> words = words(text.substring(i + 1, end));
                if (words.size() == 1) {
                    plain.addAll(words);
                } else if (!words.isEmpty()) {
                    phrases.add(String.join(" ", words));
                }
                i = end + 1;
            } else if (c == '-' && (i == 0 || Character.isWhitespace(text.charAt(i - 1)))) {
                int end = i + 1;
                while (end < n && !Character.isWhitespace(text.charAt(end))) {
                    end++;
                }
                excluded.addAll(words(text.substring(i + 1, end)));
                i = end;
            } else {
                int end = i;
                while (end < n && !Character.isWhitespace(text.charAt(end)) && text.charAt(end) != '"') {
                    end++;
                }
                plain.addAll(words(text.substring(i, Math.max(end, i + 1))));
                i = Math.max(end, i + 1);
            }
        }
        Set<String> terms = new LinkedHashSet<>(stopWords.remove(plain));
        List<String> bounded = new ArrayList<>(terms).subList(0, Math.min(terms.size(), MAX_TERMS));
        return new KeywordQuery(List.copyOf(bounded), List.copyOf(phrases), List.copyOf(excluded));
    }

    /** Lower-cased runs of letters and digits. */
    static List<String> words(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        text.codePoints().forEach(cp -> {
            if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else if (word.length() > 0) {
                words.add(word.toString().toLowerCase(Locale.ROOT));
                word.setLength(0);
            }
        });
        if (word.length() > 0) {
            words.add(word.toString().toLowerCase(Locale.ROOT));
        }
        return words;
    }

    boolean isEmpty() {
        return terms.isEmpty() && phrases.isEmpty();
    }

    boolean hasConstraints() {
        return !phrases.isEmpty() || !excluded.isEmpty();
    }

    /** The phrases and exclusions in {@code websearch_to_tsquery} syntax. */
    String constraintText() {
        StringBuilder out = new StringBuilder();
        for (String phrase : phrases) {
            out.append('"').append(phrase).append("\" ");
        }
        for (String word : excluded) {
            out.append('-').append(word).append(' ');
        }
        return out.toString().trim();
    }

    /** Every plain term required as well: the strict form used when any-term fallback is off. */
    String strictText() {
        StringBuilder out = new StringBuilder(constraintText());
        for (String term : terms) {
            out.append(' ').append(term);
        }
        return out.toString().trim();
    }

    /** The words whose IDF scores a row: plain terms and the words of phrases. */
    List<String> scoredWords() {
        Set<String> words = new LinkedHashSet<>(terms);
        for (String phrase : phrases) {
            words.addAll(List.of(phrase.split(" ")));
        }
        return new ArrayList<>(words).subList(0, Math.min(words.size(), MAX_TERMS * 2));
    }
}
