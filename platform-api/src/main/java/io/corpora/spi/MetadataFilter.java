package io.corpora.spi;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * A predicate over chunk metadata, with one meaning in every store.
 *
 * <ul>
 *   <li>{@link Eq}: the field equals the value, or — for a multi-valued (list) field — contains it.</li>
 *   <li>{@link AnyOf}: the field equals any of the values, or a multi-valued field shares at least one;
 *       an <b>empty</b> list matches nothing.</li>
 *   <li>{@link And}: every part matches (the keys of a filter map AND together); an empty And matches all.</li>
 *   <li>{@link Not}, {@link Exists}, {@link Range}: extensions. A range compares numbers numerically and
 *       strings lexicographically (so ISO-8601 dates and timestamps order correctly); a multi-valued field
 *       matches when any element is in range.</li>
 * </ul>
 * A missing field matches nothing but {@code Not} of it. Numbers compare by value ({@code 1} equals {@code 1.0}).
 *
 * <p>The JSON form ({@link #fromMap}) is {@code {"key": scalar | [values] | {"$op": …}}}, with operators
 * {@code $eq, $in, $not, $exists, $gt, $gte, $lt, $lte} and top-level {@code $and, $not}. Unknown operators
 * fail loudly.
 */
public sealed interface MetadataFilter {

    boolean matches(Map<String, ?> metadata);

    /**
     * The exact value by which filters compare a number: a {@code double} or {@code float} as its shortest decimal
     * ({@code 0.1} is 0.1, not its binary expansion), any other number as its decimal string. A store that compares
     * numbers itself (in SQL, say) converts with this, so it agrees with {@link #matches}.
     */
    static BigDecimal decimal(Number n) {
        if (n instanceof BigDecimal d) {
            return d;
        }
        if (n instanceof Double || n instanceof Float) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        return new BigDecimal(n.toString());
    }

    static MetadataFilter all() {
        return And.ALL;
    }

    static MetadataFilter eq(String key, Object value) {
        return new Eq(key, value);
    }

    static MetadataFilter anyOf(String key, Collection<?> values) {
        return new AnyOf(key, List.copyOf(values));
    }

    static MetadataFilter not(MetadataFilter filter) {
        return new Not(filter);
    }

    static MetadataFilter exists(String key) {
        return new Exists(key);
    }

    /** ANDs filters, flattening nested Ands and dropping match-alls. */
    static MetadataFilter and(MetadataFilter... filters) {
        return and(List.of(filters));
    }

    static MetadataFilter and(List<MetadataFilter> filters) {
        List<MetadataFilter> flat = new ArrayList<>();
        for (MetadataFilter f : filters) {
            Objects.requireNonNull(f, "filter");
            if (f instanceof And and) {
                flat.addAll(and.filters());
            } else {
                flat.add(f);
            }
        }
        return flat.size() == 1 ? flat.get(0) : new And(flat);
    }

    /** Whether this filter matches everything (adds no constraint). */
    default boolean isMatchAll() {
        return this instanceof And and && and.filters().isEmpty();
    }

    /** Every metadata key this filter reads. */
    default Set<String> keys() {
        Set<String> keys = new LinkedHashSet<>();
        collectKeys(this, keys);
        return keys;
    }

    private static void collectKeys(MetadataFilter filter, Set<String> keys) {
        if (filter instanceof Eq eq) {
            keys.add(eq.key());
        } else if (filter instanceof AnyOf anyOf) {
            keys.add(anyOf.key());
        } else if (filter instanceof Exists exists) {
            keys.add(exists.key());
        } else if (filter instanceof Range range) {
            keys.add(range.key());
        } else if (filter instanceof Not not) {
            collectKeys(not.filter(), keys);
        } else if (filter instanceof And and) {
            and.filters().forEach(f -> collectKeys(f, keys));
        }
    }

    /** Parses the JSON form (see the type's documentation). Null or empty means {@link #all()}. */
    static MetadataFilter fromMap(Map<String, ?> map) {
        return FilterCodec.parse(map, FilterLimits.UNBOUNDED);
    }

    /**
     * Parses a caller's JSON form within limits: past any of them an {@link IllegalArgumentException} says which, as
     * soon as it is passed (nesting is checked before it is descended into).
     */
    static MetadataFilter fromMap(Map<String, ?> map, FilterLimits limits) {
        return FilterCodec.parse(map, limits);
    }

    /** The JSON form of this filter; {@code fromMap(f.toMap())} equals {@code f}. */
    default Map<String, Object> toMap() {
        return FilterCodec.render(this);
    }

    /** Field equals value, or a multi-valued field contains it. */
    record Eq(String key, Object value) implements MetadataFilter {
        public Eq {
            Identifiers.requireMetadataKey(key);
            value = FilterValues.requireScalar(key, value);
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            return FilterValues.anyElement(metadata.get(key), v -> FilterValues.scalarEquals(v, value));
        }
    }

    /** Field equals any value, or a multi-valued field shares one. Empty values match nothing. */
    record AnyOf(String key, List<Object> values) implements MetadataFilter {
        public AnyOf {
            Identifiers.requireMetadataKey(key);
            List<Object> checked = new ArrayList<>();
            for (Object v : values) {
                checked.add(FilterValues.requireScalar(key, v));
            }
            values = List.copyOf(checked);
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            return FilterValues.anyElement(metadata.get(key),
                    v -> values.stream().anyMatch(candidate -> FilterValues.scalarEquals(v, candidate)));
        }
    }

    /** Field is present (and not null). */
    record Exists(String key) implements MetadataFilter {
        public Exists {
            Identifiers.requireMetadataKey(key);
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            return metadata.get(key) != null;
        }
    }

    /** Negation. */
    record Not(MetadataFilter filter) implements MetadataFilter {
        public Not {
            Objects.requireNonNull(filter, "filter");
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            return !filter.matches(metadata);
        }
    }

    /**
     * {@code lower <(=) field <(=) upper}; either bound may be null (open). Both bounds of one range must
     * be numbers, or both strings.
     */
    record Range(String key, Object lower, boolean lowerInclusive, Object upper, boolean upperInclusive) implements MetadataFilter {
        public Range {
            Identifiers.requireMetadataKey(key);
            if (lower == null && upper == null) {
                throw new IllegalArgumentException("range on '" + key + "' needs at least one bound");
            }
            FilterValues.requireRangeBound(key, lower);
            FilterValues.requireRangeBound(key, upper);
            if (lower != null && upper != null && (lower instanceof Number) != (upper instanceof Number)) {
                throw new IllegalArgumentException("range on '" + key + "' mixes a number and a string bound");
            }
        }

        public boolean isNumeric() {
            return (lower != null ? lower : upper) instanceof Number;
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            return FilterValues.anyElement(metadata.get(key), this::inRange);
        }

        private boolean inRange(Object v) {
            Integer lo = lower == null ? null : FilterValues.compare(v, lower);
            Integer hi = upper == null ? null : FilterValues.compare(v, upper);
            if ((lower != null && lo == null) || (upper != null && hi == null)) {
                return false; // incomparable types never match
            }
            boolean aboveLower = lower == null || (lowerInclusive ? lo >= 0 : lo > 0);
            boolean belowUpper = upper == null || (upperInclusive ? hi <= 0 : hi < 0);
            return aboveLower && belowUpper;
        }
    }

    /** Conjunction; empty matches everything. */
    record And(List<MetadataFilter> filters) implements MetadataFilter {
        static final And ALL = new And(List.of());

        public And {
            filters = List.copyOf(filters);
        }

        @Override
        public boolean matches(Map<String, ?> metadata) {
            for (MetadataFilter f : filters) {
                if (!f.matches(metadata)) {
                    return false;
                }
            }
            return true;
        }
    }

}
