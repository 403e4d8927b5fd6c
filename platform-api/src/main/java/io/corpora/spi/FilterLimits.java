package io.corpora.spi;

/**
 * Bounds on a filter parsed from a caller's JSON ({@link MetadataFilter#fromMap(java.util.Map, FilterLimits)}), so
 * one request cannot make a store build an unbounded query.
 *
 * @param maxNodes  filter objects plus conditions and operators ({@code $and}, {@code $not}, and each key's
 *                  {@code $eq}, {@code $in}, {@code $exists} or range)
 * @param maxDepth  nesting of filter objects through {@code $and} and {@code $not}; a flat filter is 1
 * @param maxValues values compared with, in all: each {@code $in} (or list) counts its values, an equality or a range
 *                  bound one each — so also the most one {@code $in} may hold
 *
 * <p>No plugin takes it: it is the argument of {@link MetadataFilter#fromMap(java.util.Map, FilterLimits)}, which a
 * plugin reading a filter from its own JSON (a filter hook's configuration) needs bounded just as the server does.
 */
public record FilterLimits(int maxNodes, int maxDepth, int maxValues) {

    /** For filters the server itself builds or reads from trusted configuration. */
    public static final FilterLimits UNBOUNDED = new FilterLimits(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

    public FilterLimits {
        if (maxNodes < 1 || maxDepth < 1 || maxValues < 1) {
            throw new IllegalArgumentException("filter limits must be at least 1, got nodes " + maxNodes + ", depth " + maxDepth
                    + ", values " + maxValues);
        }
    }
}
