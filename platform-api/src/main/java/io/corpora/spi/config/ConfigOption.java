package io.corpora.spi.config;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One configuration option a provider declares (Keycloak's ProviderConfigProperty): the server validates
 * every tenant's and operator's configuration against these declarations before a provider sees it,
 * lists them in {@code GET /admin/v1/plugins}, and masks secret values everywhere.
 *
 * @param defaultValue the value used when none is given, as a string; null for none
 * @param secret       the value is never logged or returned; configuration files reference it by a
 *                     MicroProfile Config key instead of holding it
 * @param minimum      the smallest value accepted (inclusive), as a string of the option's type; null for no bound.
 *                     Only for {@code INT}, {@code LONG}, {@code DOUBLE} and {@code DURATION}. Since SPI 1.1.
 * @param maximum      the largest value accepted (inclusive), likewise
 * @param aliases      older spellings of {@link #name()} still accepted in configuration (a renamed knob keeps working);
 *                     validation files a value given under an alias under the name, and refuses both at once. Since SPI 1.3.
 */
public record ConfigOption(String name, ConfigType type, String defaultValue, boolean required, boolean secret,
                           String description, List<String> allowedValues, String minimum, String maximum,
                           List<String> aliases) {

    private static final java.util.Set<ConfigType> ORDERED = java.util.EnumSet.of(ConfigType.INT, ConfigType.LONG,
            ConfigType.DOUBLE, ConfigType.DURATION);

    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]*(?:\\.[a-z][A-Za-z0-9]*)*");

    public ConfigOption {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("option name must be lowerCamel segments joined by dots, got: " + name);
        }
        Objects.requireNonNull(type, "type");
        aliases = aliases == null ? List.of() : List.copyOf(aliases);
        for (String alias : aliases) {
            if (!NAME.matcher(alias).matches() || alias.equals(name)) {
                throw new IllegalArgumentException("option '" + name + "' has an invalid alias: " + alias);
            }
        }
        description = description == null ? "" : description;
        allowedValues = allowedValues == null ? List.of() : List.copyOf(allowedValues);
        if (type == ConfigType.ENUM && allowedValues.isEmpty()) {
            throw new IllegalArgumentException("enum option '" + name + "' needs allowed values");
        }
        if (required && defaultValue != null) {
            throw new IllegalArgumentException("option '" + name + "' cannot be both required and defaulted");
        }
        if ((minimum != null || maximum != null) && !ORDERED.contains(type)) {
            throw new IllegalArgumentException("option '" + name + "' is " + type + ": only numbers and durations have bounds");
        }
        Object lowest = minimum == null ? null : PluginConfig.parseBound(name, type, minimum);
        Object highest = maximum == null ? null : PluginConfig.parseBound(name, type, maximum);
        if (lowest != null && highest != null && PluginConfig.compare(lowest, highest) > 0) {
            throw new IllegalArgumentException("option '" + name + "' has minimum " + minimum + " above maximum " + maximum);
        }
    }

    /** The SPI 1.1 shape, without aliases; kept so providers built against 1.1 and 1.2 still link. */
    public ConfigOption(String name, ConfigType type, String defaultValue, boolean required, boolean secret,
                        String description, List<String> allowedValues, String minimum, String maximum) {
        this(name, type, defaultValue, required, secret, description, allowedValues, minimum, maximum, List.of());
    }

    /** The SPI 1.0 shape, without bounds; kept so providers built against 1.0 still link. */
    public ConfigOption(String name, ConfigType type, String defaultValue, boolean required, boolean secret,
                        String description, List<String> allowedValues) {
        this(name, type, defaultValue, required, secret, description, allowedValues, null, null, List.of());
    }

    public static Builder builder(String name, ConfigType type) {
        return new Builder(name, type);
    }

    /** Fluent construction, so declarations read like documentation. */
    public static final class Builder {
        private final String name;
        private final ConfigType type;
        private String defaultValue;
        private boolean required;
        private boolean secret;
        private String description = "";
        private List<String> allowedValues = List.of();
        private String minimum;
        private String maximum;
        private List<String> aliases = List.of();

        private Builder(String name, ConfigType type) {
            this.name = name;
            this.type = type;
        }

        public Builder defaultValue(Object value) {
            this.defaultValue = value == null ? null : String.valueOf(value);
            return this;
        }

        public Builder required() {
            this.required = true;
            return this;
        }

        public Builder secret() {
            this.secret = true;
            return this;
        }

        public Builder description(String text) {
            this.description = text;
            return this;
        }

        public Builder allowedValues(String... values) {
            this.allowedValues = List.of(values);
            return this;
        }

        /** The smallest accepted value, inclusive (a number, or a duration such as {@code 1ms}). */
        public Builder minimum(Object value) {
            this.minimum = String.valueOf(value);
            return this;
        }

        /** The largest accepted value, inclusive. */
        public Builder maximum(Object value) {
            this.maximum = String.valueOf(value);
            return this;
        }

        /** Older spellings still accepted (e.g. {@code hnswM} for {@code hnsw.m}); listed, never shown as the name. */
        public Builder aliases(String... names) {
            this.aliases = List.of(names);
            return this;
        }

        public ConfigOption build() {
            return new ConfigOption(name, type, defaultValue, required, secret, description, allowedValues, minimum, maximum, aliases);
        }
    }
}
