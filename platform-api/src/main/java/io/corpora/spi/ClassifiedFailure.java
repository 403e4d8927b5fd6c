package io.corpora.spi;

import java.util.Optional;

/**
 * An exception that states its {@link FailureKind}. {@link PluginException} is the usual one; the SPI's older
 * exceptions that cannot change their superclass ({@link InvalidInputException} and
 * {@link io.corpora.spi.config.InvalidConfigException} stay {@link IllegalArgumentException}s, so 1.0 to 1.2 plugins
 * that throw or catch them keep linking) implement this interface instead.
 */
public interface ClassifiedFailure {

    FailureKind failureKind();

    /**
     * The kind {@code error} states, if it states one. An exception that does not (any exception of a plugin built
     * before SPI 1.3, or a newer plugin's unexpected one) is classified by the server as it always was: see
     * {@code PluginException}.
     */
    static Optional<FailureKind> of(Throwable error) {
        return error instanceof ClassifiedFailure classified && classified.failureKind() != null
                ? Optional.of(classified.failureKind())
                : Optional.empty();
    }
}
