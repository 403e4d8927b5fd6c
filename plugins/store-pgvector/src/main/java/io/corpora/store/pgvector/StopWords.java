package io.corpora.store.pgvector;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Stop-word lists of a few languages, and the choice of which list applies to a query: the language whose
 * list holds most of the query's words (ties go to the earlier configured language). Only that language's
 * stop words are dropped, so a Spanish query keeps English content words such as "con" or "a" as needed.
 */
final class StopWords {

    static final List<String> BUNDLED = List.of("english", "portuguese", "spanish");

    private final Map<String, Set<String>> byLanguage;

    private StopWords(Map<String, Set<String>> byLanguage) {
        this.byLanguage = byLanguage;
    }

    static StopWords none() {
        return new StopWords(Map.of());
    }

    /** Loads the bundled lists of the given languages (each one of {@link #BUNDLED}), in order. */
    static StopWords of(List<String> languages) {
        Map<String, Set<String>> lists = new LinkedHashMap<>();
        for (String language : languages) {
            if (!BUNDLED.contains(language)) {
                throw new IllegalArgumentException("no stop-word list for '" + language + "' (bundled: " + String.join(", ", BUNDLED) + ")");
            }
            lists.put(language, load(language));
        }
        return new StopWords(lists);
    }

    private static Set<String> load(String language) {
        String resource = "stopwords/" + language + ".txt";
        try (InputStream in = StopWords.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("stop-word list missing from the plugin jar: " + resource);
            }
            Set<String> words = new HashSet<>();
            BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = reader.readLine()) != null; ) {
                for (String word : line.trim().split("\\s+")) {
                    if (!word.isEmpty()) {
                        words.add(word.toLowerCase(Locale.ROOT));
                    }
                }
            }
            return Set.copyOf(words);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + resource, e);
        }
    }

    /** The words without the stop words of the query's most likely language (words already lower-case). */
    List<String> remove(List<String> words) {
        Set<String> best = null;
        int bestHits = 0;
        for (Set<String> list : byLanguage.values()) {
            int hits = 0;
            for (String word : words) {
                if (list.contains(word)) {
                    hits++;
                }
            }
            if (hits > bestHits) {
                best = list;
                bestHits = hits;
            }
        }
        if (best == null) {
            return words;
        }
        List<String> kept = new ArrayList<>();
        for (String word : words) {
            if (!best.contains(word)) {
                kept.add(word);
            }
        }
        return kept;
    }
}
