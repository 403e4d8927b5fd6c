package io.corpora.spi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The JSON form of {@link MetadataFilter}. */
final class FilterCodec {

    private static final Set<String> KEY_OPERATORS = Set.of("$eq", "$in", "$not", "$exists", "$gt", "$gte", "$lt", "$lte");

    private FilterCodec() {}

    static MetadataFilter parse(Map<String, ?> map, FilterLimits limits) {
        return new Parse(limits).filter(map, 1);
    }

    /** One parse, counting what the limits bound as it goes. */
    private static final class Parse {
        private final FilterLimits limits;
        private int nodes;
        private int values;

        Parse(FilterLimits limits) {
            this.limits = limits;
        }

        private void node() {
            if (++nodes > limits.maxNodes()) {
                throw new IllegalArgumentException("the filter has more than " + limits.maxNodes() + " conditions and operators");
            }
        }

        private void values(String key, int count) {
            if (count > limits.maxValues()) {
                throw new IllegalArgumentException("the filter on '" + key + "' lists " + count + " values; at most "
                        + limits.maxValues() + " are accepted");
            }
            values += count;
            if (values > limits.maxValues()) {
                throw new IllegalArgumentException("the filter compares with more than " + limits.maxValues() + " values in all");
            }
        }

        private void depth(int depth) {
            if (depth > limits.maxDepth()) {
                throw new IllegalArgumentException("the filter nests deeper than " + limits.maxDepth() + " levels of $and and $not");
            }
        }

        private Map<String, ?> nested(String operator, Object value, int depth) {
            depth(depth);
            return asMap(operator, value);
        }

        MetadataFilter filter(Map<String, ?> map, int depth) {
            node();
            if (map == null || map.isEmpty()) {
                return MetadataFilter.all();
            }
            List<MetadataFilter> parts = new ArrayList<>();
            for (Map.Entry<String, ?> entry : map.entrySet()) {
                String key = entry.getKey();
                Object value = entry.getValue();
                switch (key) {
                    case "$and" -> {
                        if (!(value instanceof List<?> list)) {
                            throw new IllegalArgumentException("$and needs a list of filters");
                        }
                        node();
                        for (Object item : list) {
                            parts.add(filter(nested("$and", item, depth + 1), depth + 1));
                        }
                    }
                    case "$not" -> {
                        node();
                        parts.add(MetadataFilter.not(filter(nested("$not", value, depth + 1), depth + 1)));
                    }
                    default -> {
                        if (key.startsWith("$")) {
                            throw new IllegalArgumentException("unknown filter operator '" + key + "'");
                        }
                        parts.add(condition(key, value, depth));
                    }
                }
            }
            return MetadataFilter.and(parts);
        }

        private MetadataFilter condition(String key, Object value, int depth) {
            node();
            if (value instanceof List<?> list) {
                values(key, list.size());
                return new MetadataFilter.AnyOf(key, new ArrayList<>(list));
            }
            if (!(value instanceof Map<?, ?> ops)) {
                values(key, 1);
                return new MetadataFilter.Eq(key, value);
            }
            if (ops.isEmpty()) {
                throw new IllegalArgumentException("filter on '" + key + "' has an empty operator object");
            }
            List<MetadataFilter> parts = new ArrayList<>();
            Object lower = null;
            Object upper = null;
            boolean lowerInclusive = false;
            boolean upperInclusive = false;
            for (Map.Entry<?, ?> op : ops.entrySet()) {
                String name = String.valueOf(op.getKey());
                Object operand = op.getValue();
                if (!KEY_OPERATORS.contains(name)) {
                    throw new IllegalArgumentException("unknown filter operator '" + name + "' on key '" + key + "'");
                }
                switch (name) {
                    case "$eq" -> {
                        node();
                        values(key, 1);
                        parts.add(new MetadataFilter.Eq(key, operand));
                    }
                    case "$in" -> {
                        if (!(operand instanceof List<?> list)) {
                            throw new IllegalArgumentException("$in on '" + key + "' needs a list");
                        }
                        node();
                        values(key, list.size());
                        parts.add(new MetadataFilter.AnyOf(key, new ArrayList<>(list)));
                    }
                    case "$not" -> {
                        depth(depth + 1);
                        parts.add(MetadataFilter.not(condition(key, operand, depth + 1)));
                    }
                    case "$exists" -> {
                        if (!(operand instanceof Boolean b)) {
                            throw new IllegalArgumentException("$exists on '" + key + "' needs true or false");
                        }
                        node();
                        MetadataFilter exists = MetadataFilter.exists(key);
                        parts.add(b ? exists : MetadataFilter.not(exists));
                    }
                    case "$gt", "$gte" -> {
                        if (lower != null) {
                            throw new IllegalArgumentException("filter on '" + key + "' has two lower bounds");
                        }
                        values(key, 1);
                        lower = operand;
                        lowerInclusive = name.equals("$gte");
                    }
                    case "$lt", "$lte" -> {
                        if (upper != null) {
                            throw new IllegalArgumentException("filter on '" + key + "' has two upper bounds");
                        }
                        values(key, 1);
                        upper = operand;
                        upperInclusive = name.equals("$lte");
                    }
                    default -> throw new IllegalStateException(name);
                }
            }
            if (lower != null || upper != null) {
                node();
                parts.add(new MetadataFilter.Range(key, lower, lowerInclusive, upper, upperInclusive));
            }
            return MetadataFilter.and(parts);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, ?> asMap(String operator, Object value) {
        if (!(value instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(operator + " needs a filter object");
        }
        return (Map<String, ?>) m;
    }

    static Map<String, Object> render(MetadataFilter filter) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (filter instanceof MetadataFilter.And and) {
            List<Object> parts = new ArrayList<>();
            for (MetadataFilter f : and.filters()) {
                parts.add(render(f));
            }
            if (!parts.isEmpty()) {
                out.put("$and", parts);
            }
        } else if (filter instanceof MetadataFilter.Eq eq) {
            out.put(eq.key(), Map.of("$eq", eq.value()));
        } else if (filter instanceof MetadataFilter.AnyOf anyOf) {
            out.put(anyOf.key(), Map.of("$in", anyOf.values()));
        } else if (filter instanceof MetadataFilter.Exists exists) {
            out.put(exists.key(), Map.of("$exists", true));
        } else if (filter instanceof MetadataFilter.Not not) {
            out.put("$not", render(not.filter()));
        } else if (filter instanceof MetadataFilter.Range range) {
            Map<String, Object> ops = new LinkedHashMap<>();
            if (range.lower() != null) {
                ops.put(range.lowerInclusive() ? "$gte" : "$gt", range.lower());
            }
            if (range.upper() != null) {
                ops.put(range.upperInclusive() ? "$lte" : "$lt", range.upper());
            }
            out.put(range.key(), ops);
        }
        return out;
    }
}
