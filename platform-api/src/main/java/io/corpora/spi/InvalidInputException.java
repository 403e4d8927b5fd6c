package io.corpora.spi;

/**
 * Thrown by a plugin when the input it was given cannot be served because of what the caller sent — a query longer
 * than the model accepts, a value the backend cannot hold — and not because the plugin is unwell. The server answers
 * the caller 400 with this message, does not retry, and does not count the call for or against the plugin's circuit
 * breaker. Any other exception from a plugin call is the plugin's failure (the server validates what it passes on, so
 * a plain {@link IllegalArgumentException} from a plugin means the plugin rejected input the server held valid).
 *
 * <p>Since SPI 1.3 it is the {@link FailureKind#CALLER_ERROR} of the failure contract (see {@link PluginException});
 * it stays an {@link IllegalArgumentException} so plugins built against 1.0 to 1.2 keep linking.
 */
public class InvalidInputException extends IllegalArgumentException implements ClassifiedFailure {

    private static final long serialVersionUID = 1L;

    public InvalidInputException(String message) {
        super(message);
    }

    public InvalidInputException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Always {@link FailureKind#CALLER_ERROR}. */
    @Override
    public final FailureKind failureKind() {
        return FailureKind.CALLER_ERROR;
    }
}
