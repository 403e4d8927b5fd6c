package io.corpora.store.pgvector;

import io.corpora.spi.MetadataFilter;
import java.util.List;

/**
 * Compiles a {@link MetadataFilter} into a SQL boolean over the JSONB metadata column, with exactly the
 * semantics of {@link MetadataFilter#matches}. Keys and values are bound parameters, never spliced; every
 * node yields TRUE or FALSE (never NULL), so {@code NOT} is a plain negation.
 *
 * <ul>
 *   <li>Eq: {@code m @> {"k": v}} or {@code m @> {"k": [v]}} (scalar or multi-valued field; the GIN
 *       {@code jsonb_path_ops} index serves both); JSONB compares numbers by value, so 1 equals 1.0.</li>
 *   <li>AnyOf: OR of the Eq forms; an empty list is FALSE.</li>
 *   <li>Exists: {@code m -> k IS NOT NULL}.</li>
 *   <li>Range: a jsonpath {@code lax $[*] ? (@ >= $lo && @ < $hi)} over the field, so a multi-valued field
 *       matches when any element is in range; jsonpath compares numbers numerically, strings by code point,
 *       and never matches across types.</li>
 * </ul>
 */
final class FilterSql {

    private final String metadataColumn;

    FilterSql(String metadataColumn) {
        this.metadataColumn = metadataColumn;
    }

    SqlFragment compile(MetadataFilter filter) {
        SqlFragment out = new SqlFragment();
        append(out, filter);
        return out;
    }

    private void append(SqlFragment out, MetadataFilter filter) {
        if (filter instanceof MetadataFilter.And and) {
            appendJoined(out, and.filters(), " AND ", "TRUE");
        } else if (filter instanceof MetadataFilter.Not not) {
            out.sql("(NOT ");
            append(out, not.filter());
            out.sql(")");
        } else if (filter instanceof MetadataFilter.Eq eq) {
            appendEquals(out, eq.key(), eq.value());
        } else if (filter instanceof MetadataFilter.AnyOf anyOf) {
            if (anyOf.values().isEmpty()) {
                out.sql("FALSE");
                return;
            }
            out.sql("(");
            for (int i = 0; i < anyOf.values().size(); i++) {
                out.sql(i == 0 ? "" : " OR ");
                appendEquals(out, anyOf.key(), anyOf.values().get(i));
            }
            out.sql(")");
        } else if (filter instanceof MetadataFilter.Exists exists) {
            out.sql("(" + metadataColumn + " -> ").bind(exists.key(), "text").sql(" IS NOT NULL)");
        } else if (filter instanceof MetadataFilter.Range range) {
            appendRange(out, range);
        } else {
            throw new IllegalArgumentException("unsupported filter node " + filter.getClass().getSimpleName());
        }
    }

    private void appendJoined(SqlFragment out, List<MetadataFilter> parts, String joiner, String whenEmpty) {
        if (parts.isEmpty()) {
            out.sql(whenEmpty);
            return;
        }
        out.sql("(");
        for (int i = 0; i < parts.size(); i++) {
            out.sql(i == 0 ? "" : joiner);
            append(out, parts.get(i));
        }
        out.sql(")");
    }

    /** Field equals the scalar, or a multi-valued field contains it. */
    private void appendEquals(SqlFragment out, String key, Object value) {
        out.sql("(" + metadataColumn + " @> jsonb_build_object(").bind(key, "text").sql(", ");
        appendJsonScalar(out, value);
        out.sql(") OR " + metadataColumn + " @> jsonb_build_object(").bind(key, "text").sql(", jsonb_build_array(");
        appendJsonScalar(out, value);
        out.sql(")))");
    }

    private void appendRange(SqlFragment out, MetadataFilter.Range range) {
        StringBuilder path = new StringBuilder("lax $[*] ? (");
        if (range.lower() != null) {
            path.append(range.lowerInclusive() ? "@ >= $lo" : "@ > $lo");
        }
        if (range.upper() != null) {
            path.append(range.lower() != null ? " && " : "").append(range.upperInclusive() ? "@ <= $hi" : "@ < $hi");
        }
        path.append(')');
        out.sql("coalesce(jsonb_path_exists(" + metadataColumn + " -> ").bind(range.key(), "text")
                .sql(", ").bind(path.toString(), "jsonpath").sql(", jsonb_build_object('lo', ");
        appendJsonScalarOrNull(out, range.lower());
        out.sql(", 'hi', ");
        appendJsonScalarOrNull(out, range.upper());
        out.sql(")), FALSE)");
    }

    private static void appendJsonScalarOrNull(SqlFragment out, Object value) {
        if (value == null) {
            out.sql("NULL::jsonb");
        } else {
            appendJsonScalar(out, value);
        }
    }

    /** A bound scalar as JSONB, typed so strings, numbers and booleans never compare equal to each other. */
    static void appendJsonScalar(SqlFragment out, Object value) {
        if (value instanceof String s) {
            out.sql("to_jsonb(").bind(s, "text").sql(")");
        } else if (value instanceof Boolean b) {
            out.sql("to_jsonb(").bind(b, "boolean").sql(")");
        } else if (value instanceof Number n) {
            out.sql("to_jsonb(").bind(MetadataFilter.decimal(n), "numeric").sql(")");
        } else {
            throw new IllegalArgumentException("filter value must be a string, number or boolean, got "
                    + (value == null ? "null" : value.getClass().getSimpleName()));
        }
    }
}
