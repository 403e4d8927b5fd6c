package io.corpora.spi;

import java.util.List;
import java.util.function.Predicate;

/** Value rules shared by every {@link MetadataFilter} node. */
final class FilterValues {

    private FilterValues() {}

    static Object requireScalar(String key, Object value) {
        if (value instanceof String || value instanceof Boolean) {
            return value;
        }
        if (value instanceof Number n) {
            if (!Double.isFinite(n.doubleValue())) {
                throw new IllegalArgumentException("filter on '" + key + "' has a non-finite number");
            }
            return value;
        }
        throw new IllegalArgumentException("filter on '" + key + "' must compare with a string, number or boolean, got "
                + (value == null ? "null" : value.getClass().getSimpleName()));
    }

    static void requireRangeBound(String key, Object bound) {
        if (bound != null && !(bound instanceof Number) && !(bound instanceof String)) {
            throw new IllegalArgumentException("range on '" + key + "' needs number or string bounds, got " + bound.getClass().getSimpleName());
        }
        if (bound != null) {
            requireScalar(key, bound);
        }
    }

    /** Applies the test to a scalar field, or to each element of a multi-valued field (any must pass). */
    static boolean anyElement(Object field, Predicate<Object> test) {
        if (field == null) {
            return false;
        }
        if (field instanceof List<?> list) {
            for (Object item : list) {
                if (item != null && test.test(item)) {
                    return true;
                }
            }
            return false;
        }
        return test.test(field);
    }

    static boolean scalarEquals(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return MetadataFilter.decimal(x).compareTo(MetadataFilter.decimal(y)) == 0;
        }
        return a.equals(b);
    }

    /** Compares like types (numbers numerically, strings lexicographically); null for incomparable types. */
    static Integer compare(Object value, Object bound) {
        if (value instanceof Number x && bound instanceof Number y) {
            return MetadataFilter.decimal(x).compareTo(MetadataFilter.decimal(y));
        }
        if (value instanceof String x && bound instanceof String y) {
            return x.compareTo(y);
        }
        return null;
    }
}
