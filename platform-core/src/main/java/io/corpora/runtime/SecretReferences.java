package io.corpora.runtime;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves {@code ${config:some.key}} references in plugin configuration against a configuration source
 * (MicroProfile Config in the server), so tenant files never hold secrets. Resolution happens only when a plugin
 * instance is created; an unresolvable reference is an error naming the key, never an empty value.
 */
public final class SecretReferences {

    private static final Pattern REFERENCE = Pattern.compile("\\$\\{config:([A-Za-z0-9_.\\-]+)}");

    private SecretReferences() {}

    public static boolean isReference(String value) {
        return value != null && REFERENCE.matcher(value.trim()).matches();
    }

    /**
     * {@code text} — a plugin's own words about {@code config} — with every value a reference resolved to shown as the
     * reference instead: a plugin may repeat what it was given, and a referenced value may be a secret.
     */
    public static String withoutReferencedValues(String text, Map<String, String> config, Function<String, Optional<String>> source) {
        String shown = text;
        for (String value : config.values()) {
            Matcher m = value == null ? null : REFERENCE.matcher(value.trim());
            if (m != null && m.matches()) {
                Optional<String> resolved = source.apply(m.group(1));
                if (resolved.isPresent() && !resolved.get().isEmpty()) {
                    shown = shown.replace(resolved.get(), value.trim());
                }
            }
        }
        return shown;
    }

    public static Map<String, String> resolve(Map<String, String> config, Function<String, Optional<String>> source) {
        Map<String, String> resolved = new LinkedHashMap<>();
        config.forEach((option, value) -> {
            Matcher m = value == null ? null : REFERENCE.matcher(value.trim());
            if (m != null && m.matches()) {
                String key = m.group(1);
                resolved.put(option, source.apply(key).orElseThrow(() -> new IllegalStateException(
                        "option '" + option + "' references configuration key '" + key + "', which is not set")));
            } else {
                resolved.put(option, value);
            }
        });
        return resolved;
    }
}
