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
 */
public record ConfigOption(String name, ConfigType type, String defaultValue, boolean required, boolean secret,
                           String description, List<String> allowedValues) {

    private static final Pattern NAME = Pattern.compile("[a-z][A-Za-z0-9]*(?:\\.[a-z][A-Za-z0-9]*)*");

    public ConfigOption {
        Objects.requireNonNull(name, "name");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("option name must be lowerCamel segments joined by dots, got: " + name);
        }
        Objects.requireNonNull(type, "type");
        description = description == null ? "" : description;
        allowedValues = allowedValues == null ? List.of() : List.copyOf(allowedValues);
        if (type == ConfigType.ENUM && allowedValues.isEmpty()) {
            throw new IllegalArgumentException("enum option '" + name + "' needs allowed values");
        }
        if (required && defaultValue != null) {
            throw new IllegalArgumentException("option '" + name + "' cannot be both required and defaulted");
        }
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

        public ConfigOption build() {
            return new ConfigOption(name, type, defaultValue, required, secret, description, allowedValues);
        }
    }
}
