package io.corpora.spi.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A provider's configuration, validated against its declared {@link ConfigOption}s: every declared option
 * has a parsed value or is absent (optional without default), and no undeclared key is present.
 */
public final class PluginConfig {

    private final String provider;
    private final Map<String, ConfigOption> options;
    private final Map<String, Object> values;

    private PluginConfig(String provider, Map<String, ConfigOption> options, Map<String, Object> values) {
        this.provider = provider;
        this.options = options;
        this.values = values;
    }

    /**
     * Validates raw string values against the declarations; throws {@link InvalidConfigException} listing
     * every unknown key, missing required option and unparsable value.
     */
    public static PluginConfig validate(String provider, List<ConfigOption> declared, Map<String, String> raw) {
        Map<String, ConfigOption> byName = new LinkedHashMap<>();
        Map<String, String> canonical = new LinkedHashMap<>();
        for (ConfigOption option : declared) {
            if (byName.put(option.name(), option) != null) {
                throw new IllegalStateException("provider '" + provider + "' declares option '" + option.name() + "' twice");
            }
            for (String spelling : concat(option.name(), option.aliases())) {
                if (canonical.put(spelling, option.name()) != null) {
                    throw new IllegalStateException("provider '" + provider + "' declares the spelling '" + spelling + "' twice");
                }
            }
        }
        List<String> problems = new ArrayList<>();
        // An alias is the same knob under its older spelling: file its value under the name, refuse both at once.
        Map<String, String> given = new LinkedHashMap<>();
        Map<String, String> spelledAs = new LinkedHashMap<>();
        for (Map.Entry<String, String> entry : (raw == null ? Map.<String, String>of() : raw).entrySet()) {
            String name = canonical.get(entry.getKey());
            if (name == null) {
                problems.add("unknown option '" + entry.getKey() + "' (known: " + String.join(", ", byName.keySet()) + ")");
                continue;
            }
            String earlier = spelledAs.putIfAbsent(name, entry.getKey());
            if (earlier != null) {
                problems.add("option '" + name + "' is given twice, as '" + earlier + "' and as '" + entry.getKey() + "'");
                continue;
            }
            given.put(name, entry.getValue());
        }
        Map<String, Object> values = new LinkedHashMap<>();
        for (ConfigOption option : byName.values()) {
            String text = given.get(option.name());
            if (text == null || text.isBlank()) {
                text = option.defaultValue();
            }
            if (text == null) {
                if (option.required()) {
                    problems.add("option '" + option.name() + "' is required");
                }
                continue;
            }
            try {
                Object value = parse(option, text.trim());
                requireWithinBounds(option, value);
                values.put(option.name(), value);
            } catch (IllegalArgumentException e) {
                problems.add("option '" + option.name() + "': " + e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(provider, problems);
        }
        return new PluginConfig(provider, Collections.unmodifiableMap(byName), Collections.unmodifiableMap(values));
    }

    private static List<String> concat(String name, List<String> aliases) {
        List<String> all = new ArrayList<>(aliases.size() + 1);
        all.add(name);
        all.addAll(aliases);
        return all;
    }

    public static PluginConfig empty(String provider) {
        return new PluginConfig(provider, Map.of(), Map.of());
    }

    private static Object parse(ConfigOption option, String text) {
        return switch (option.type()) {
            case STRING -> text;
            case INT -> parseNumber(text, Integer::parseInt, "an integer");
            case LONG -> parseNumber(text, Long::parseLong, "an integer");
            case DOUBLE -> {
                double d = parseNumber(text, Double::parseDouble, "a number");
                if (!Double.isFinite(d)) {
                    throw new IllegalArgumentException("must be finite, got '" + text + "'");
                }
                yield d;
            }
            case BOOLEAN -> switch (text.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> throw new IllegalArgumentException("must be true or false, got '" + text + "'");
            };
            case ENUM -> {
                if (!option.allowedValues().contains(text)) {
                    throw new IllegalArgumentException("must be one of " + option.allowedValues() + ", got '" + text + "'");
                }
                yield text;
            }
            case LIST -> Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
            case PATH -> Path.of(text);
            case DURATION -> parseDuration(text);
        };
    }

    private static void requireWithinBounds(ConfigOption option, Object value) {
        if (option.minimum() != null && compare(value, parseBound(option.name(), option.type(), option.minimum())) < 0) {
            throw new IllegalArgumentException("must be at least " + option.minimum() + ", got " + value);
        }
        if (option.maximum() != null && compare(value, parseBound(option.name(), option.type(), option.maximum())) > 0) {
            throw new IllegalArgumentException("must be at most " + option.maximum() + ", got " + value);
        }
    }

    /** Parses a declared bound; one that does not parse is the declaring provider's bug, not the operator's. */
    static Object parseBound(String optionName, ConfigType type, String text) {
        try {
            return parse(new ConfigOption(optionName, type, null, false, false, null, List.of("bound")), text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("option '" + optionName + "' declares a bound that is not a " + type + ": '" + text + "'", e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    static int compare(Object left, Object right) {
        return ((Comparable) left).compareTo(right);
    }

    private static <T> T parseNumber(String text, java.util.function.Function<String, T> parser, String what) {
        try {
            return parser.apply(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("must be " + what + ", got '" + text + "'");
        }
    }

    static Duration parseDuration(String text) {
        try {
            if (text.startsWith("P") || text.startsWith("p")) {
                return Duration.parse(text);
            }
            if (text.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(text.substring(0, text.length() - 2).trim()));
            }
            long amount = Long.parseLong(text.substring(0, text.length() - 1).trim());
            return switch (text.charAt(text.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new IllegalArgumentException("bad unit");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("must be a duration such as PT30S, 500ms, 30s, 5m or 1h, got '" + text + "'");
        }
    }

    public String provider() {
        return provider;
    }

    public boolean has(String name) {
        return values.containsKey(name);
    }

    public Optional<String> getString(String name) {
        return Optional.ofNullable((String) get(name, ConfigType.STRING, ConfigType.ENUM));
    }

    public String requireString(String name) {
        return getString(name).orElseThrow(() -> missing(name));
    }

    public int getInt(String name) {
        return (Integer) require(name, ConfigType.INT);
    }

    public long getLong(String name) {
        return (Long) require(name, ConfigType.LONG);
    }

    public double getDouble(String name) {
        return (Double) require(name, ConfigType.DOUBLE);
    }

    public boolean getBoolean(String name) {
        return (Boolean) require(name, ConfigType.BOOLEAN);
    }

    @SuppressWarnings("unchecked")
    public List<String> getList(String name) {
        Object value = get(name, ConfigType.LIST);
        return value == null ? List.of() : (List<String>) value;
    }

    public Optional<Path> getPath(String name) {
        return Optional.ofNullable((Path) get(name, ConfigType.PATH));
    }

    public Duration getDuration(String name) {
        return (Duration) require(name, ConfigType.DURATION);
    }

    /** The configuration for display: secrets masked. */
    public Map<String, String> describe() {
        Map<String, String> out = new LinkedHashMap<>();
        values.forEach((k, v) -> out.put(k, options.containsKey(k) && options.get(k).secret() ? "******" : String.valueOf(v)));
        return out;
    }

    private Object require(String name, ConfigType... types) {
        Object value = get(name, types);
        if (value == null) {
            throw missing(name);
        }
        return value;
    }

    private Object get(String name, ConfigType... types) {
        ConfigOption option = options.get(name);
        if (option == null) {
            throw new IllegalArgumentException("provider '" + provider + "' did not declare option '" + name + "'");
        }
        if (!Arrays.asList(types).contains(option.type())) {
            throw new IllegalArgumentException("option '" + name + "' is " + option.type() + ", not " + Arrays.toString(types));
        }
        return values.get(name);
    }

    private IllegalStateException missing(String name) {
        return new IllegalStateException("option '" + name + "' of '" + provider + "' has no value and no default");
    }

    @Override
    public String toString() {
        return "PluginConfig[" + provider + " " + describe() + "]";
    }
}
