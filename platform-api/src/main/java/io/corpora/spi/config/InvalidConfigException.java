package io.corpora.spi.config;

import java.util.List;

/** Configuration that does not satisfy a provider's declared options; lists every problem at once. */
public class InvalidConfigException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidConfigException(String provider, List<String> problems) {
        super("invalid configuration for '" + provider + "': " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
