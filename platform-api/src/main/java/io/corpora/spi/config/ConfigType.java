package io.corpora.spi.config;

/** The type of a provider's configuration option; values arrive as strings and are parsed by type. */
public enum ConfigType {
    STRING, INT, LONG, DOUBLE, BOOLEAN,
    /** One of {@link ConfigOption#allowedValues()}. */
    ENUM,
    /** A comma-separated list of strings. */
    LIST,
    /** A file-system path. */
    PATH,
    /** A duration in ISO-8601 ({@code PT30S}) or as {@code 500ms}, {@code 30s}, {@code 5m}. */
    DURATION
}
