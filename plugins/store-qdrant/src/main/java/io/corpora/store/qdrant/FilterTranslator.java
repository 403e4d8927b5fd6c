package io.corpora.store.qdrant;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.qdrant.client.ConditionFactory;
import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.Range;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link MetadataFilter} to Qdrant filters, with the namespace always in {@code must}. Each rule keeps exactly the meaning
 * of {@link MetadataFilter#matches}:
 *
 * <ul>
 *   <li>{@code Eq}: a string is {@code match: {keyword}}, a boolean {@code match: {boolean}} (Qdrant matches any element
 *       of an array, as Eq does); a number is {@code range: {gte: v, lte: v}}, since {@code match} compares integers
 *       only and Eq compares numbers by value ({@code 1} equals {@code 1.0}).</li>
 *   <li>{@code AnyOf}: the strings as one {@code match: {any}}, each number and boolean as above, OR-ed in {@code should};
 *       an empty AnyOf matches nothing.</li>
 *   <li>{@code Exists}: the key in the store's {@code meta_keys} list. Not {@code must_not: is_empty}: Qdrant's
 *       {@code is_empty} also holds for {@code []}, which Exists counts as present.</li>
 *   <li>{@code Not}: {@code must_not}. Not {@code match: {except}}: on an array it holds when <em>some</em> element is
 *       outside the set, where Not(AnyOf) needs every element outside it, and it never holds for a missing key.</li>
 *   <li>{@code And}: {@code must}; a numeric {@code Range}: {@code range} (any element in range, numbers only).</li>
 *   <li>A string {@code Range} has no Qdrant condition (its ranges are numeric or datetime, and datetime parsing is not
 *       lexicographic order). The translation then over-approximates — the range becomes "true" where it counts
 *       positively and "false" under an odd number of negations — and says it is {@linkplain Translation#exact() not
 *       exact}: the store re-checks every candidate with {@link MetadataFilter#matches}.</li>
 * </ul>
 */
final class FilterTranslator {

    private FilterTranslator() {}

    /**
     * A Qdrant filter for a store call.
     *
     * @param filter         the filter to send (namespace conditions included)
     * @param matchesNothing no point can match (an empty AnyOf where it decides): the store need not ask Qdrant
     * @param exact          false when {@code filter} selects a superset that the store must re-check
     */
    record Translation(Filter filter, boolean matchesNothing, boolean exact) {}

    /** The namespace's own points: tenant and partition, both in {@code must}. */
    static Filter namespace(Namespace namespace) {
        return Filter.newBuilder().addAllMust(namespaceConditions(namespace)).build();
    }

    /** Every point of a tenant, in every partition. */
    static Filter tenant(String tenant) {
        return Filter.newBuilder().addMust(ConditionFactory.matchKeyword(ChunkPayload.TENANT, tenant)).build();
    }

    /** One document of a namespace. */
    static Filter document(Namespace namespace, String documentId) {
        return Filter.newBuilder().addAllMust(namespaceConditions(namespace))
                .addMust(ConditionFactory.matchKeyword(ChunkPayload.DOCUMENT_ID, documentId)).build();
    }

    /** The namespace, the fingerprint (when given) and the metadata filter, AND-ed. */
    static Translation translate(Namespace namespace, MetadataFilter filter, String embedderId) {
        Filter.Builder builder = Filter.newBuilder().addAllMust(namespaceConditions(namespace));
        if (embedderId != null) {
            builder.addMust(ConditionFactory.matchKeyword(ChunkPayload.EMBEDDER, embedderId));
        }
        Part part = part(filter, true);
        if (part.kind == Kind.NONE) {
            return new Translation(builder.build(), true, part.exact);
        }
        if (part.kind == Kind.CONDITION) {
            builder.addMust(part.condition);
        }
        return new Translation(builder.build(), false, part.exact);
    }

    private static List<Condition> namespaceConditions(Namespace namespace) {
        return List.of(ConditionFactory.matchKeyword(ChunkPayload.TENANT, namespace.tenant()),
                ConditionFactory.matchKeyword(ChunkPayload.PARTITION, namespace.partitionKey()));
    }

    private enum Kind { ALL, NONE, CONDITION }

    /** A translated node: everything, nothing, or a condition; inexact when a string range was approximated in it. */
    private record Part(Kind kind, Condition condition, boolean exact) {
        static final Part ALL = new Part(Kind.ALL, null, true);
        static final Part NONE = new Part(Kind.NONE, null, true);

        static Part of(Condition condition) {
            return new Part(Kind.CONDITION, condition, true);
        }

        Part inexact() {
            return new Part(kind, condition, false);
        }
    }

    /** @param positive whether the node counts positively (an even number of negations above it) */
    private static Part part(MetadataFilter filter, boolean positive) {
        if (filter instanceof MetadataFilter.Eq eq) {
            return Part.of(equal(ChunkPayload.metadataPath(eq.key()), eq.value()));
        }
        if (filter instanceof MetadataFilter.AnyOf anyOf) {
            return anyOf(anyOf);
        }
        if (filter instanceof MetadataFilter.Exists exists) {
            return Part.of(ConditionFactory.matchKeyword(ChunkPayload.META_KEYS, exists.key()));
        }
        if (filter instanceof MetadataFilter.Range range) {
            if (!range.isNumeric()) {
                return (positive ? Part.ALL : Part.NONE).inexact();
            }
            return Part.of(ConditionFactory.range(ChunkPayload.metadataPath(range.key()), numericRange(range)));
        }
        if (filter instanceof MetadataFilter.Not not) {
            Part inner = part(not.filter(), !positive);
            Part negated = switch (inner.kind) {
                case ALL -> Part.NONE;
                case NONE -> Part.ALL;
                case CONDITION -> Part.of(ConditionFactory.filter(Filter.newBuilder().addMustNot(inner.condition).build()));
            };
            return inner.exact ? negated : negated.inexact();
        }
        if (filter instanceof MetadataFilter.And and) {
            return and(and, positive);
        }
        throw new IllegalArgumentException("unknown filter node " + filter.getClass().getSimpleName());
    }

    private static Part and(MetadataFilter.And and, boolean positive) {
        List<Condition> conditions = new ArrayList<>();
        boolean exact = true;
        boolean nothing = false;
        for (MetadataFilter child : and.filters()) {
            Part part = part(child, positive);
            exact &= part.exact;
            if (part.kind == Kind.NONE) {
                nothing = true;
            } else if (part.kind == Kind.CONDITION) {
                conditions.add(part.condition);
            }
        }
        Part result;
        if (nothing) {
            result = Part.NONE;
        } else if (conditions.isEmpty()) {
            result = Part.ALL;
        } else if (conditions.size() == 1) {
            result = Part.of(conditions.get(0));
        } else {
            result = Part.of(ConditionFactory.filter(Filter.newBuilder().addAllMust(conditions).build()));
        }
        return exact ? result : result.inexact();
    }

    private static Part anyOf(MetadataFilter.AnyOf anyOf) {
        if (anyOf.values().isEmpty()) {
            return Part.NONE;
        }
        String path = ChunkPayload.metadataPath(anyOf.key());
        List<String> strings = new ArrayList<>();
        List<Condition> others = new ArrayList<>();
        for (Object value : anyOf.values()) {
            if (value instanceof String s) {
                if (!strings.contains(s)) {
                    strings.add(s);
                }
            } else {
                others.add(equal(path, value));
            }
        }
        List<Condition> alternatives = new ArrayList<>();
        if (!strings.isEmpty()) {
            alternatives.add(strings.size() == 1 ? ConditionFactory.matchKeyword(path, strings.get(0))
                    : ConditionFactory.matchKeywords(path, strings));
        }
        alternatives.addAll(others);
        return Part.of(alternatives.size() == 1 ? alternatives.get(0)
                : ConditionFactory.filter(Filter.newBuilder().addAllShould(alternatives).build()));
    }

    private static Condition equal(String path, Object value) {
        if (value instanceof String s) {
            return ConditionFactory.matchKeyword(path, s);
        }
        if (value instanceof Boolean b) {
            return ConditionFactory.match(path, b);
        }
        double number = toDouble((Number) value);
        return ConditionFactory.range(path, Range.newBuilder().setGte(number).setLte(number).build());
    }

    private static Range numericRange(MetadataFilter.Range range) {
        Range.Builder builder = Range.newBuilder();
        if (range.lower() != null) {
            double lower = toDouble((Number) range.lower());
            if (range.lowerInclusive()) {
                builder.setGte(lower);
            } else {
                builder.setGt(lower);
            }
        }
        if (range.upper() != null) {
            double upper = toDouble((Number) range.upper());
            if (range.upperInclusive()) {
                builder.setLte(upper);
            } else {
                builder.setLt(upper);
            }
        }
        return builder.build();
    }

    /** Qdrant compares numbers as float64; integers beyond 2^53 lose their last digits here, as they do in Qdrant. */
    private static double toDouble(Number number) {
        return number instanceof BigDecimal decimal ? decimal.doubleValue() : number.doubleValue();
    }
}
