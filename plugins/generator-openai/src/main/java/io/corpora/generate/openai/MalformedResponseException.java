package io.corpora.generate.openai;

/**
 * The backend answered outside the chat-completions protocol: a body or stream chunk that is not JSON, or JSON without
 * the fields the protocol requires. A permanent failure in the SPI's terms (an {@link IllegalStateException}): the
 * endpoint is not what the configuration says it is, or is broken. The message names the endpoint and quotes an
 * excerpt of what arrived.
 */
public class MalformedResponseException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public MalformedResponseException(String message) {
        super(message);
    }

    public MalformedResponseException(String message, Throwable cause) {
        super(message, cause);
    }
}
