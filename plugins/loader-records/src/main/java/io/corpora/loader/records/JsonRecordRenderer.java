package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Renders one JSON value, token by token, as {@code field: value} lines: nested objects become dotted paths
 * ({@code address.city: Paris}), arrays of scalars one line ({@code tags: a, b}), objects inside arrays indexed
 * paths ({@code items[0].sku: X1}). Iterative, so nesting depth is bounded by the parser's constraint and never by
 * the thread's stack; no tree is built, so memory is bounded by the record-size limit.
 */
final class JsonRecordRenderer {

    private static final class Frame {
        final boolean array;
        final String path;
        String fieldName;
        int index;
        boolean listOpen;

        Frame(boolean array, String path) {
            this.array = array;
            this.path = path;
        }

        String childPath() {
            if (array) {
                return path + "[" + index + "]";
            }
            return path.isEmpty() ? fieldName : path + "." + fieldName;
        }
    }

    private final Set<String> metadataFields;

    JsonRecordRenderer(Set<String> metadataFields) {
        this.metadataFields = metadataFields;
    }

    /**
     * Renders the value at the parser's current token into {@code text}, leaving the parser on the value's last
     * token.
     *
     * @return the configured metadata fields found at the record's top level, typed
     */
    Map<String, Object> render(JsonParser parser, RecordText text) throws IOException {
        Map<String, Object> metadata = new LinkedHashMap<>();
        JsonToken token = parser.currentToken();
        if (!token.isStructStart()) {
            String scalar = scalarText(parser, token);
            if (scalar != null) {
                text.field("", scalar);
            }
            return metadata;
        }
        Deque<Frame> stack = new ArrayDeque<>();
        stack.push(new Frame(token == JsonToken.START_ARRAY, ""));
        while (!stack.isEmpty()) {
            token = parser.nextToken();
            if (token == null) {
                throw new JsonEOFException(parser, null, "unexpected end of input inside a record");
            }
            Frame top = stack.peek();
            if (token == JsonToken.FIELD_NAME) {
                top.fieldName = parser.currentName().replace('\n', ' ').replace('\r', ' ');
                continue;
            }
            if (token.isStructEnd()) {
                if (top.listOpen) {
                    text.closeList();
                }
                stack.pop();
                continue;
            }
            String path = top.childPath();
            if (token.isStructStart()) {
                if (top.array) {
                    if (top.listOpen) {
                        text.closeList();
                        top.listOpen = false;
                    }
                    top.index++;
                }
                stack.push(new Frame(token == JsonToken.START_ARRAY, path));
                continue;
            }
            String scalar = scalarText(parser, token);
            if (top.array) {
                if (scalar != null) {
                    if (!top.listOpen) {
                        text.startList(top.path);
                        top.listOpen = true;
                    }
                    text.listItem(scalar);
                }
                top.index++;
            } else {
                if (scalar != null) {
                    text.field(path, scalar);
                }
                if (stack.size() == 1 && metadataFields.contains(top.fieldName)) {
                    Object value = typedScalar(parser, token);
                    if (value != null) {
                        metadata.put(top.fieldName, value);
                    }
                }
            }
        }
        return metadata;
    }

    /** The scalar as text; null for JSON null (it says nothing, so it is not rendered). */
    private static String scalarText(JsonParser parser, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NULL ? null : parser.getText();
    }

    private static Object typedScalar(JsonParser parser, JsonToken token) throws IOException {
        switch (token) {
            case VALUE_STRING:
                return parser.getText();
            case VALUE_TRUE:
            case VALUE_FALSE:
                return parser.getBooleanValue();
            case VALUE_NUMBER_INT:
                return parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER ? parser.getText() : parser.getLongValue();
            case VALUE_NUMBER_FLOAT:
                double value = parser.getDoubleValue();
                return Double.isFinite(value) ? value : parser.getText();
            default:
                return null;
        }
    }
}
