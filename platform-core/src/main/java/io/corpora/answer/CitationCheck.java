package io.corpora.answer;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks the citation markers of an answer as it streams: {@code [n]} with {@code n} between 1 and the number of
 * passages in the context is kept and recorded (in order of first citation); any other {@code [digits]} (a number the
 * model invented) is removed and counted. Text that only looks like the start of a marker is held back until the marker
 * is complete or proven not to be one, so the pieces handed on are already clean and concatenate to the checked answer.
 * Not thread-safe: one per answer, fed in order.
 */
final class CitationCheck {

    /** Longest number a marker may carry; longer bracketed digits are text, not a citation. */
    private static final int MAX_DIGITS = 4;

    private final int passages;
    private final StringBuilder pending = new StringBuilder();
    private final Set<Integer> cited = new LinkedHashSet<>();
    private int removed;

    CitationCheck(int passages) {
        this.passages = passages;
    }

    /** Checks a whole text at once. */
    static String check(String text, int passages, CitationCheck[] out) {
        CitationCheck check = new CitationCheck(passages);
        String clean = check.accept(text) + check.finish();
        if (out != null) {
            out[0] = check;
        }
        return clean;
    }

    /** The checked text that can be released after this piece (possibly empty: a marker may still be open). */
    String accept(String piece) {
        StringBuilder released = new StringBuilder();
        for (int i = 0; i < piece.length(); i++) {
            char c = piece.charAt(i);
            if (pending.length() == 0) {
                if (c == '[') {
                    pending.append(c);
                } else {
                    released.append(c);
                }
                continue;
            }
            if (c >= '0' && c <= '9' && pending.length() <= MAX_DIGITS) {
                pending.append(c);
            } else if (c == ']' && pending.length() > 1) {
                int n = Integer.parseInt(pending, 1, pending.length(), 10);
                if (n >= 1 && n <= passages) {
                    cited.add(n);
                    released.append(pending).append(']');
                } else {
                    removed++;
                }
                pending.setLength(0);
            } else {
                released.append(pending); // not a marker after all
                pending.setLength(0);
                i--; // look at c again: it may open a marker itself
            }
        }
        return released.toString();
    }

    /** What is still held back at the end of the answer (an unfinished marker is plain text). */
    String finish() {
        String rest = pending.toString();
        pending.setLength(0);
        return rest;
    }

    /** The passage numbers cited, in order of first citation. */
    List<Integer> cited() {
        return new ArrayList<>(cited);
    }

    int removed() {
        return removed;
    }
}
