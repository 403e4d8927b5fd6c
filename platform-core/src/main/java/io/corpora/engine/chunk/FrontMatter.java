package io.corpora.engine.chunk;

import io.corpora.spi.Identifiers;
import io.corpora.spi.ReservedKeys;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * YAML front matter at the top of a Markdown text ({@code ---} … {@code ---}), read as flat metadata.
 *
 * <p>Deliberately a subset (the engine carries no YAML library): {@code key: value} scalars (strings, quoted
 * strings, integers, decimals, booleans), inline lists {@code key: [a, b]} and block lists ({@code key:} followed
 * by {@code - item} lines). Nested maps, multi-line strings, keys that are not valid metadata keys and reserved
 * ({@code _}-prefixed) keys are skipped: metadata is flat by contract, and reserved keys are the server's. Lines are
 * read by hand-written scanners, one pass each, so a hostile line costs linear time.
 */
public record FrontMatter(Map<String, Object> metadata, String body) {

    private static final Pattern INTEGER = Pattern.compile("[-+]?\\d{1,18}");
    private static final Pattern DECIMAL = Pattern.compile("[-+]?\\d+\\.\\d+");

    public FrontMatter {
        metadata = Map.copyOf(metadata);
    }

    /** Splits front matter from the body; a text without front matter has empty metadata and is its own body. */
    public static FrontMatter parse(String text) {
        return parse(text, DocumentDeadline.NONE);
    }

    /** {@link #parse(String)}, checking the document's deadline line by line. */
    public static FrontMatter parse(String text, DocumentDeadline deadline) {
        String normalized = text.startsWith("\uFEFF") ? text.substring(1) : text;
        if (!normalized.startsWith("---\n") && !normalized.startsWith("---\r\n")) {
            return new FrontMatter(Map.of(), text);
        }
        String[] lines = normalized.split("\r?\n", -1);
        int close = -1;
        for (int i = 1; i < lines.length; i++) {
            deadline.check("looking for the end of the front matter");
            if (lines[i].equals("---") || lines[i].equals("...")) {
                close = i;
                break;
            }
        }
        if (close < 0) {
            return new FrontMatter(Map.of(), text); // an unclosed fence is a thematic break, not front matter
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        String listKey = null;
        List<Object> list = null;
        for (int i = 1; i < close; i++) {
            deadline.check("reading the front matter");
            String line = lines[i];
            if (line.isBlank() || line.stripLeading().startsWith("#")) {
                continue;
            }
            String item = listKey == null ? null : listItem(line);
            if (item != null) {
                list.add(scalar(item));
                continue;
            }
            if (listKey != null) {
                if (!list.isEmpty()) { // a key with neither value nor items is null (or a nested map): skipped
                    putIfValid(metadata, listKey, List.copyOf(list));
                }
                listKey = null;
            }
            if (Character.isWhitespace(line.charAt(0))) {
                continue; // nested structure: not flat metadata
            }
            KeyValue kv = keyValue(line);
            if (kv == null) {
                continue;
            }
            String key = kv.key().strip();
            String value = stripComment(kv.value()).strip();
            if (value.isEmpty()) {
                listKey = key;
                list = new ArrayList<>();
            } else if (value.startsWith("[") && value.endsWith("]")) {
                List<Object> inline = new ArrayList<>();
                for (String part : value.substring(1, value.length() - 1).split(",")) {
                    if (!part.isBlank()) {
                        inline.add(scalar(part));
                    }
                }
                putIfValid(metadata, key, inline);
            } else if (!value.startsWith("{") && !value.startsWith("|") && !value.startsWith(">")) {
                putIfValid(metadata, key, scalar(value));
            }
        }
        if (listKey != null && !list.isEmpty()) {
            putIfValid(metadata, listKey, List.copyOf(list));
        }
        StringBuilder body = new StringBuilder();
        for (int i = close + 1; i < lines.length; i++) {
            body.append(lines[i]);
            if (i < lines.length - 1) {
                body.append('\n');
            }
        }
        return new FrontMatter(metadata, body.toString());
    }

    /** A {@code key: value} line's parts; the value is empty when nothing follows the colon. */
    record KeyValue(String key, String value) {}

    /**
     * {@code key: value}: a key that starts with neither whitespace, {@code #} nor {@code :}, ends before the first colon
     * (its trailing whitespace dropped), and is followed by whitespace or the end of the line; null otherwise.
     */
    static KeyValue keyValue(String line) {
        if (line.isEmpty() || isSpace(line.charAt(0)) || line.charAt(0) == '#' || line.charAt(0) == ':') {
            return null;
        }
        int colon = line.indexOf(':');
        if (colon < 0) {
            return null;
        }
        int keyEnd = colon;
        while (isSpace(line.charAt(keyEnd - 1))) {
            keyEnd--; // stops at the key's first character, which is not a space
        }
        int value = colon + 1;
        if (value < line.length() && !isSpace(line.charAt(value))) {
            return null; // "a:b" is a plain scalar, not a key
        }
        while (value < line.length() && isSpace(line.charAt(value))) {
            value++;
        }
        return new KeyValue(line.substring(0, keyEnd), line.substring(value));
    }

    /** A block-list item's text ({@code - item}, after the dash and its whitespace), or null. */
    static String listItem(String line) {
        int i = 0;
        while (i < line.length() && isSpace(line.charAt(i))) {
            i++;
        }
        if (i + 1 >= line.length() || line.charAt(i) != '-' || !isSpace(line.charAt(i + 1))) {
            return null;
        }
        i++;
        while (i < line.length() && isSpace(line.charAt(i))) {
            i++;
        }
        return line.substring(i);
    }

    /** Whitespace as the pattern class {@code \s} reads it: space, tab, line feed, vertical tab, form feed, carriage return. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    private static void putIfValid(Map<String, Object> metadata, String key, Object value) {
        if (Identifiers.METADATA_KEY.matcher(key).matches() && !ReservedKeys.isReserved(key)) {
            metadata.put(key, value);
        }
    }

    private static String stripComment(String value) {
        if (value.startsWith("\"") || value.startsWith("'")) {
            return value;
        }
        int hash = value.indexOf(" #");
        return hash >= 0 ? value.substring(0, hash) : value;
    }

    private static Object scalar(String raw) {
        String v = raw.strip();
        if (v.length() >= 2 && (v.startsWith("\"") && v.endsWith("\"") || v.startsWith("'") && v.endsWith("'"))) {
            return v.substring(1, v.length() - 1);
        }
        if (v.equals("true") || v.equals("false")) {
            return Boolean.valueOf(v);
        }
        if (INTEGER.matcher(v).matches()) {
            return Long.parseLong(v);
        }
        if (DECIMAL.matcher(v).matches()) {
            return Double.parseDouble(v);
        }
        return v;
    }
}
