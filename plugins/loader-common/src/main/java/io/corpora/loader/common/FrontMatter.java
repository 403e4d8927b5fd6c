package io.corpora.loader.common;

import io.corpora.spi.Identifiers;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * YAML front matter: a block between a first line {@code ---} and a closing {@code ---} (or {@code ...}) line, parsed
 * as real YAML by snakeyaml-engine (block and flow lists, block scalars, quoting, comments all as YAML says). Values
 * become document metadata: scalars and lists of scalars as they are, nested mappings flattened to dotted keys
 * ({@code author.name}). Anything metadata cannot hold is an error naming the key, never dropped; so is a reserved
 * ({@code _}-prefixed) key, which only the server sets.
 *
 * <p>The one front-matter grammar of the platform: the Markdown loader and the engine's Markdown chunker both read it
 * here. Cost stays linear: the fences are found by single-pass patterns, and a block over {@value #MAX_CHARS}
 * characters is refused before the YAML parser sees it (which is itself bounded by code points and aliases).
 *
 * @param metadata the metadata found
 * @param body     the Markdown after the block (the whole text when there is no front matter)
 */
public record FrontMatter(Map<String, Object> metadata, String body) {

    /** Front matter is for a few fields; a bigger block is refused before the YAML parser sees it. */
    public static final int MAX_CHARS = 64 * 1024;
    private static final int MAX_ALIASES = 20;
    private static final Pattern OPENING = Pattern.compile("\\A\\uFEFF?---[ \\t]*\\r?\\n");
    private static final Pattern CLOSING = Pattern.compile("^(?:---|\\.\\.\\.)[ \\t]*$", Pattern.MULTILINE);
    private static final Pattern KEY_INVALID_CHARS = Pattern.compile("[^A-Za-z0-9_.-]");

    public FrontMatter {
        metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /**
     * Splits a text's front matter from its body; a text without front matter (or with an unclosed leading {@code ---},
     * a thematic break) has empty metadata and is its own body.
     *
     * @throws DocumentLoadException {@code TOO_LARGE} for a block over {@value #MAX_CHARS} characters, {@code MALFORMED}
     *                               for invalid YAML or a key or value metadata cannot hold, naming {@code fileName}
     */
    public static FrontMatter split(String text, String fileName) {
        Matcher opening = OPENING.matcher(text);
        if (!opening.find()) {
            return new FrontMatter(Map.of(), text);
        }
        Matcher closing = CLOSING.matcher(text);
        if (!closing.find(opening.end())) {
            // A leading "---" with no closing line is a thematic break, not front matter.
            return new FrontMatter(Map.of(), text);
        }
        String yaml = text.substring(opening.end(), closing.start());
        if (yaml.length() > MAX_CHARS) {
            throw new DocumentLoadException(Reason.TOO_LARGE, "the front matter of '" + fileName + "' is " + yaml.length()
                    + " characters; at most " + MAX_CHARS + " are accepted. Keep front matter to a few metadata fields.");
        }
        int bodyStart = closing.end();
        if (bodyStart < text.length() && text.charAt(bodyStart) == '\r') {
            bodyStart++;
        }
        bodyStart = Math.min(text.length(), bodyStart + 1);
        return new FrontMatter(parse(yaml, fileName), text.substring(bodyStart));
    }

    private static Map<String, Object> parse(String yaml, String fileName) {
        if (yaml.isBlank()) {
            return Map.of();
        }
        LoadSettings settings = LoadSettings.builder()
                .setSchema(new CoreSchema())
                .setAllowDuplicateKeys(false)
                .setAllowRecursiveKeys(false)
                .setMaxAliasesForCollections(MAX_ALIASES)
                .setCodePointLimit(MAX_CHARS + 1)
                .setLabel(fileName + " front matter")
                .build();
        Object root;
        try {
            root = new Load(settings).loadFromString(yaml);
        } catch (YamlEngineException e) {
            throw new DocumentLoadException(Reason.MALFORMED,
                    "the front matter of '" + fileName + "' is not valid YAML: " + firstLines(e.getMessage()), e);
        }
        if (root == null) {
            return Map.of();
        }
        if (!(root instanceof Map<?, ?> map)) {
            throw new DocumentLoadException(Reason.MALFORMED, "the front matter of '" + fileName
                    + "' must be 'key: value' lines, but it is a " + describe(root));
        }
        Map<String, Object> metadata = new LinkedHashMap<>();
        flatten("", map, metadata, fileName);
        return metadata;
    }

    private static void flatten(String prefix, Map<?, ?> map, Map<String, Object> out, String fileName) {
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            String key = prefix + metadataKey(entry.getKey(), fileName);
            Object value = entry.getValue();
            if (value == null) {
                continue; // "key:" with no value says nothing
            }
            if (value instanceof Map<?, ?> nested) {
                flatten(key + ".", nested, out, fileName);
            } else if (value instanceof List<?> list) {
                List<Object> items = new ArrayList<>(list.size());
                for (Object item : list) {
                    if (item instanceof Map<?, ?> || item instanceof List<?>) {
                        throw new DocumentLoadException(Reason.MALFORMED, "front matter key '" + key + "' of '" + fileName
                                + "' holds a list of " + describe(item) + "s; metadata supports only scalars and lists of scalars");
                    }
                    if (item != null) {
                        items.add(scalar(item));
                    }
                }
                out.put(key, items);
            } else {
                out.put(key, scalar(value));
            }
        }
    }

    /** Keys become metadata keys: characters metadata keys cannot hold (spaces, ':') become '_'. */
    private static String metadataKey(Object rawKey, String fileName) {
        String key = KEY_INVALID_CHARS.matcher(String.valueOf(rawKey).trim()).replaceAll("_");
        if (ReservedKeys.isReserved(key)) {
            throw new DocumentLoadException(Reason.MALFORMED, "front matter key '" + rawKey + "' of '" + fileName
                    + "' is reserved: keys starting with '" + ReservedKeys.PREFIX + "' are set by the server, never by content");
        }
        if (!Identifiers.METADATA_KEY.matcher(key).matches()) {
            throw new DocumentLoadException(Reason.MALFORMED, "front matter key '" + rawKey + "' of '" + fileName
                    + "' cannot be a metadata key: keys start with a letter and hold at most 128 letters, digits, '_', '.' or '-'");
        }
        return key;
    }

    private static Object scalar(Object value) {
        if (value instanceof Integer || value instanceof Long || value instanceof Boolean || value instanceof String) {
            return value;
        }
        if (value instanceof BigInteger big) {
            return big.bitLength() < 64 ? (Object) big.longValue() : big.toString();
        }
        if (value instanceof Double d) {
            return Double.isFinite(d) ? d : d.toString();
        }
        return String.valueOf(value);
    }

    private static String describe(Object value) {
        if (value instanceof Map<?, ?>) {
            return "mapping";
        }
        return value instanceof List<?> ? "list" : "single value";
    }

    private static String firstLines(String message) {
        String text = message == null ? "unknown error" : message.strip();
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
