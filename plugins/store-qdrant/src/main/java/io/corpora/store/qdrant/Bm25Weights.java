package io.corpora.store.qdrant;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The keyword leg as Qdrant sparse vectors, BM25 split between client and server: the store computes each chunk's
 * term-frequency part, {@code tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen))}, and the collection's sparse vector is
 * created with Qdrant's {@code modifier: idf}, which multiplies each query term by
 * {@code ln((N − n + 0.5)/(n + 0.5) + 1)} computed over the collection; a query term weighs 1, so the score is BM25.
 * {@code avgLen} is a constant (Qdrant's own BM25 does the same), since weights are fixed when a chunk is written.
 *
 * <p>Terms are runs of letters and digits, lower-cased, and each CJK ideograph or kana on its own — the same units the
 * server counts as query terms. A term's sparse index is the FNV-1a 32-bit hash of its UTF-8 bytes; distinct terms that
 * collide share an index (their counts add up), which at 2³² indices is rare and only blurs two terms' statistics.
 * No stemming and no stop words: IDF already makes common words weigh little.
 */
record Bm25Weights(double k1, double b, int avgLength) {

    /** A sparse vector: ascending indices (as unsigned 32-bit values in ints) and their weights. */
    record Sparse(List<Integer> indices, List<Float> values) {
        boolean isEmpty() {
            return indices.isEmpty();
        }
    }

    /** The weights stored with a chunk, from the text it was indexed with. */
    Sparse document(String indexText) {
        List<String> terms = terms(indexText);
        Map<Integer, Integer> counts = new TreeMap<>(Integer::compareUnsigned);
        for (String term : terms) {
            counts.merge(index(term), 1, Integer::sum);
        }
        double lengthNorm = 1 - b + b * terms.size() / (double) avgLength;
        List<Integer> indices = new ArrayList<>(counts.size());
        List<Float> values = new ArrayList<>(counts.size());
        counts.forEach((index, tf) -> {
            indices.add(index);
            values.add((float) (tf * (k1 + 1) / (tf + k1 * lengthNorm)));
        });
        return new Sparse(List.copyOf(indices), List.copyOf(values));
    }

    /** The query vector: each distinct term weighs 1 (Qdrant's idf modifier then weighs it by rarity). */
    static Sparse query(String text) {
        Map<Integer, Integer> distinct = new TreeMap<>(Integer::compareUnsigned);
        for (String term : new java.util.LinkedHashSet<>(terms(text))) {
            distinct.merge(index(term), 1, Integer::sum);
        }
        List<Integer> indices = new ArrayList<>(distinct.keySet());
        List<Float> values = distinct.values().stream().map(Integer::floatValue).toList();
        return new Sparse(List.copyOf(indices), values);
    }

    /** Lower-cased runs of letters and digits, each CJK ideograph or kana a term of its own. */
    static List<String> terms(String text) {
        List<String> terms = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            i += Character.charCount(cp);
            if (isSingleCharacterTerm(cp)) {
                flush(run, terms);
                terms.add(new String(Character.toChars(cp)).toLowerCase(Locale.ROOT));
            } else if (Character.isLetterOrDigit(cp)) {
                run.appendCodePoint(cp);
            } else {
                flush(run, terms);
            }
        }
        flush(run, terms);
        return terms;
    }

    private static boolean isSingleCharacterTerm(int codePoint) {
        if (Character.isIdeographic(codePoint)) {
            return true;
        }
        Character.UnicodeScript script = Character.UnicodeScript.of(codePoint);
        return script == Character.UnicodeScript.HIRAGANA || script == Character.UnicodeScript.KATAKANA;
    }

    private static void flush(StringBuilder run, List<String> terms) {
        if (!run.isEmpty()) {
            terms.add(run.toString().toLowerCase(Locale.ROOT));
            run.setLength(0);
        }
    }

    /** FNV-1a, 32 bits, over the term's UTF-8 bytes (offset basis 2166136261, prime 16777619). */
    static int index(String term) {
        int hash = 0x811c9dc5;
        for (byte b : term.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= 0x01000193;
        }
        return hash;
    }
}
