package io.corpora.store.qdrant;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The store's collection names: one shared collection per vector width, {@code <prefix>_d<width>}, as Qdrant advises
 * one collection per embedding model (tenants share it, separated by payload). Names are derived from the validated
 * prefix and an integer, never taken from input, so they always satisfy Qdrant's naming rules.
 */
final class CollectionNames {

    /** Lower-case, starts with a letter, short enough that any width still fits Qdrant's 255-byte limit comfortably. */
    static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9_-]{0,47}");
    static final int MAX_WIDTH = 65_536;

    private final String prefix;
    private final Pattern owned;

    CollectionNames(String prefix) {
        if (prefix == null || !PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("collection prefix must match " + PREFIX.pattern() + ", got '" + prefix + "'");
        }
        this.prefix = prefix;
        this.owned = Pattern.compile(Pattern.quote(prefix) + "_d([1-9][0-9]{0,4})");
    }

    String prefix() {
        return prefix;
    }

    /** The collection of vectors of this width. */
    String forWidth(int width) {
        if (width < 1 || width > MAX_WIDTH) {
            throw new IllegalArgumentException("vector width must be 1.." + MAX_WIDTH + ", got " + width);
        }
        return prefix + "_d" + width;
    }

    /** The width of one of this store's collections, or empty for any other name (another prefix, another program's). */
    OptionalInt widthOf(String collection) {
        Matcher m = owned.matcher(collection);
        if (!m.matches()) {
            return OptionalInt.empty();
        }
        int width = Integer.parseInt(m.group(1));
        return width <= MAX_WIDTH ? OptionalInt.of(width) : OptionalInt.empty();
    }

    /** This store's collections among all of the server's, in width order. */
    List<String> owned(List<String> allCollections) {
        List<Integer> widths = new ArrayList<>();
        for (String name : allCollections) {
            widthOf(name).ifPresent(widths::add);
        }
        widths.sort(null);
        return widths.stream().map(this::forWidth).toList();
    }
}
