package io.corpora.spi.config;

import io.corpora.spi.ClassifiedFailure;
import io.corpora.spi.FailureKind;
import java.util.List;

/**
 * Configuration that does not satisfy a provider's declared options; lists every problem at once. A
 * {@link FailureKind#CALLER_ERROR} (whoever sent the configuration must change it), answered 400; it stays an
 * {@link IllegalArgumentException} so plugins built against SPI 1.0 to 1.2 keep linking.
 */
public class InvalidConfigException extends IllegalArgumentException implements ClassifiedFailure {

    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidConfigException(String provider, List<String> problems) {
        super("invalid configuration for '" + provider + "': " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }

    /** Always {@link FailureKind#CALLER_ERROR}. */
    @Override
    public final FailureKind failureKind() {
        return FailureKind.CALLER_ERROR;
    }
}
