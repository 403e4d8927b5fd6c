package io.corpora.testkit;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ArbitrarySupplier;
import net.jqwik.api.Combinators;

/**
 * A line built to make a backtracking pattern slow: a marker, a long run of one short unit (spaces, tabs, {@code #},
 * {@code :} …), then a marker that makes the match fail or succeed only at the very end. Scaled to any length by
 * repeating the unit, so a complexity test ({@link LinearTime}) can feed the same shape at two sizes.
 */
public record AdversarialLine(String prefix, String unit, String suffix) {

    public AdversarialLine {
        if (unit.isEmpty()) {
            throw new IllegalArgumentException("the repeated unit must not be empty");
        }
    }

    @Override
    public String toString() {
        return "'" + escaped(prefix) + "' + '" + escaped(unit) + "'… + '" + escaped(suffix) + "'";
    }

    private static String escaped(String text) {
        StringBuilder out = new StringBuilder();
        text.chars().forEach(c -> out.append(c >= ' ' && c < 0x7f ? String.valueOf((char) c) : String.format("\\u%04x", c)));
        return out.toString();
    }

    /** About {@code length} characters: the prefix, the unit repeated, the suffix. */
    public String ofLength(int length) {
        int repeats = Math.max(1, (length - prefix.length() - suffix.length()) / unit.length());
        return prefix + unit.repeat(repeats) + suffix;
    }

    /**
     * The shapes known to be quadratic for the patterns this project used to have: an ATX heading whose text is
     * {@code a}, a long run of spaces and {@code b} (the issue's reproduction), a front-matter line without a colon, a
     * list item ending in a line separator, trailing whitespace never followed by a newline.
     */
    public static List<AdversarialLine> known() {
        return List.of(
                new AdversarialLine("## a", " ", "b"),
                new AdversarialLine("# a", " \t", "b"),
                new AdversarialLine("###### x", " ", " #x"),
                new AdversarialLine("a", " ", "b"),
                new AdversarialLine("key", " ", ":x"),
                new AdversarialLine("- ", " ", "\u2028x"),
                new AdversarialLine("text", " \t", "end"));
    }

    /** Generated shapes: a Markdown-ish marker, a run of whitespace and punctuation, a closing marker. */
    public static Arbitrary<AdversarialLine> generated() {
        Arbitrary<String> prefix = Arbitraries.of("", "#", "## a", "###### ", "   #", "- ", "a", "key", "key:", "```", "---", "<");
        Arbitrary<String> unit = Arbitraries.strings().withChars(' ', '\t', '#', ':', '-', '/', '_').ofMinLength(1).ofMaxLength(4);
        Arbitrary<String> suffix = Arbitraries.of("", "b", "#", " #", ":", ": v", "\u2028x", "\r", "x#", ">", "retrieved_context>");
        return Combinators.combine(prefix, unit, suffix).as(AdversarialLine::new);
    }

    /** {@link #generated()} for {@code @ForAll(supplier = AdversarialLine.Generated.class)}. */
    public static final class Generated implements ArbitrarySupplier<AdversarialLine> {
        @Override
        public Arbitrary<AdversarialLine> get() {
            return generated();
        }
    }
}
