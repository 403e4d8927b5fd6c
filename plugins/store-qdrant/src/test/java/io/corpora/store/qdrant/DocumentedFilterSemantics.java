package io.corpora.store.qdrant;

import io.qdrant.client.grpc.Common.Condition;
import io.qdrant.client.grpc.Common.FieldCondition;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.Match;
import io.qdrant.client.grpc.Common.Range;
import io.qdrant.client.grpc.JsonWithInt.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The meaning Qdrant's documentation gives a filter, applied to a payload: the test oracle the translation is checked
 * against (no server; Qdrant is not run here). Every rule quotes its source; only the conditions the store emits are
 * modelled, and anything else fails the test loudly.
 *
 * <p>Sources: https://qdrant.tech/documentation/search/filtering/ (clauses, match, match any, match except, range, is
 * empty, nested key); the path grammar of {@code lib/segment/src/json_path/parse.rs} in github.com/qdrant/qdrant (a
 * segment may be {@code "quoted"}).
 */
final class DocumentedFilterSemantics {

    private DocumentedFilterSemantics() {}

    /**
     * "must: the clause becomes true only if every condition listed inside must is satisfied"; "should: true if at least
     * one condition listed inside should is satisfied"; "must_not: true if none of the conditions listed inside must_not
     * is satisfied"; several clauses "are combined by AND".
     */
    static boolean matches(Filter filter, Map<String, Value> payload) {
        for (Condition c : filter.getMustList()) {
            if (!holds(c, payload)) {
                return false;
            }
        }
        if (filter.getShouldCount() > 0 && filter.getShouldList().stream().noneMatch(c -> holds(c, payload))) {
            return false;
        }
        for (Condition c : filter.getMustNotList()) {
            if (holds(c, payload)) {
                return false;
            }
        }
        if (filter.hasMinShould()) {
            throw new AssertionError("min_should is not emitted by the store");
        }
        return true;
    }

    static boolean holds(Condition condition, Map<String, Value> payload) {
        return switch (condition.getConditionOneOfCase()) {
            case FILTER -> matches(condition.getFilter(), payload); // "the conditions could be recursively nested"
            case FIELD -> field(condition.getField(), payload);
            case IS_EMPTY -> isEmpty(values(payload, condition.getIsEmpty().getKey()));
            default -> throw new AssertionError("condition " + condition.getConditionOneOfCase() + " is not emitted by the store");
        };
    }

    private static boolean field(FieldCondition field, Map<String, Value> payload) {
        List<Value> values = values(payload, field.getKey());
        if (field.hasMatch()) {
            return match(field.getMatch(), values);
        }
        if (field.hasRange()) {
            return range(field.getRange(), values);
        }
        throw new AssertionError("field condition " + field + " is not emitted by the store");
    }

    /**
     * Match: "If several values are stored, at least one of them should match the condition. You can apply it to keyword,
     * integer and bool payloads." Match any: "If the stored value is an array, it should have at least one value matching
     * any of the given values." Match except: "If the stored value is an array, it should have at least one value not
     * matching any of the given values" (a missing field has no value, so none fits).
     */
    static boolean match(Match match, List<Value> values) {
        return switch (match.getMatchValueCase()) {
            case KEYWORD -> values.stream().anyMatch(v -> v.hasStringValue() && v.getStringValue().equals(match.getKeyword()));
            case INTEGER -> values.stream().anyMatch(v -> v.hasIntegerValue() && v.getIntegerValue() == match.getInteger());
            case BOOLEAN -> values.stream().anyMatch(v -> v.hasBoolValue() && v.getBoolValue() == match.getBoolean());
            case KEYWORDS -> values.stream().anyMatch(v -> v.hasStringValue() && match.getKeywords().getStringsList().contains(v.getStringValue()));
            case EXCEPT_KEYWORDS -> values.stream().anyMatch(v -> v.hasStringValue()
                    && !match.getExceptKeywords().getStringsList().contains(v.getStringValue()));
            default -> throw new AssertionError("match " + match.getMatchValueCase() + " is not emitted by the store");
        };
    }

    /**
     * Range: "sets the range of possible values for stored payload values. If several values are stored, at least one of
     * them should match the condition ... Can be applied to float and integer payloads"; "you will get an empty output if
     * you apply the range condition on the string data" (manage-data/payload).
     */
    static boolean range(Range range, List<Value> values) {
        for (Value v : values) {
            if (!v.hasIntegerValue() && !v.hasDoubleValue()) {
                continue;
            }
            double x = v.hasIntegerValue() ? v.getIntegerValue() : v.getDoubleValue();
            if ((!range.hasGt() || x > range.getGt()) && (!range.hasGte() || x >= range.getGte())
                    && (!range.hasLt() || x < range.getLt()) && (!range.hasLte() || x <= range.getLte())) {
                return true;
            }
        }
        return false;
    }

    /** Is empty: "will match all records where the field either does not exist, or has null or [] value". */
    static boolean isEmpty(List<Value> values) {
        return values.isEmpty() || values.stream().allMatch(Value::hasNullValue);
    }

    /**
     * The values at a path: top-level keys, and {@code meta."key"} — "You can search on a nested field using a dot
     * notation"; a segment may be quoted so it may contain dots. An array stands for its elements; a missing field has none.
     */
    static List<Value> values(Map<String, Value> payload, String path) {
        List<String> segments = segments(path);
        Value current = payload.get(segments.get(0));
        for (String segment : segments.subList(1, segments.size())) {
            if (current == null || !current.hasStructValue()) {
                return List.of();
            }
            current = current.getStructValue().getFieldsMap().get(segment);
        }
        if (current == null) {
            return List.of();
        }
        return current.hasListValue() ? current.getListValue().getValuesList() : List.of(current);
    }

    /** Unquoted segments are runs of letters, digits, '_' and '-'; a quoted one is anything but quotes and backslashes. */
    static List<String> segments(String path) {
        List<String> segments = new ArrayList<>();
        int i = 0;
        while (i < path.length()) {
            if (path.charAt(i) == '"') {
                int end = path.indexOf('"', i + 1);
                if (end < 0) {
                    throw new AssertionError("unterminated quote in path " + path);
                }
                segments.add(path.substring(i + 1, end));
                i = end + 1;
            } else {
                int end = i;
                while (end < path.length() && (Character.isLetterOrDigit(path.charAt(end)) || path.charAt(end) == '_' || path.charAt(end) == '-')) {
                    end++;
                }
                if (end == i) {
                    throw new AssertionError("path " + path + " does not parse at " + i);
                }
                segments.add(path.substring(i, end));
                i = end;
            }
            if (i < path.length()) {
                if (path.charAt(i) != '.') {
                    throw new AssertionError("path " + path + " does not parse at " + i);
                }
                i++;
            }
        }
        return segments;
    }
}
