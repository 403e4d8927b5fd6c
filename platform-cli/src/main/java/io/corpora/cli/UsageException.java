package io.corpora.cli;

/** The command line is wrong: the message says what and how to fix it; the CLI prints it with the usage. */
public class UsageException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UsageException(String message) {
        super(message);
    }
}
