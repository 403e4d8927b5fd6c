package io.corpora.server.rest;

import java.io.IOException;
import java.util.logging.Filter;
import java.util.logging.LogRecord;

/**
 * Drops the web container's log records of a request URI it refused, and passes every other record on.
 *
 * <p>Liberty logs each request whose URI Servlet 6 calls suspicious (an encoded {@code /}, {@code \}, {@code #} or dot
 * segment) as SEVERE {@code SRVE0315E} with a stack trace, though the caller sent it and was answered 400
 * ({@link ContainerRefusalServlet}): any client could fill the server log with SEVERE lines and page its operator.
 * Such a record is recognised by its exception, not its words (they are localised): an {@link IOException} thrown by
 * the container's request-URI checks, anywhere in the chain of causes of the record's exception or of an
 * exception among its message's parameters.
 */
final class RefusedRequestUriRecords implements Filter {

    /** The logger Liberty's web container reports a failed request under. */
    static final String CONTAINER_LOGGER = "com.ibm.ws.webcontainer.webapp";

    /** The class whose methods check (and refuse) a request URI in Liberty's web container. */
    static final String URI_CHECKS = "com.ibm.wsspi.webcontainer.util.RequestUtils";

    private static final int MAX_CAUSES = 16;

    private final Filter previous;

    /** @param previous the logger's filter before this one, asked about every other record (null: none) */
    RefusedRequestUriRecords(Filter previous) {
        this.previous = previous;
    }

    Filter previous() {
        return previous;
    }

    @Override
    public boolean isLoggable(LogRecord record) {
        if (isUriRefusal(record.getThrown()) || refusalInParameters(record.getParameters())) {
            return false;
        }
        return previous == null || previous.isLoggable(record);
    }

    // SRVE0315E carries the exception as its message's parameter, not as the record's thrown.
    private static boolean refusalInParameters(Object[] parameters) {
        if (parameters != null) {
            for (Object parameter : parameters) {
                if (parameter instanceof Throwable thrown && isUriRefusal(thrown)) {
                    return true;
                }
            }
        }
        return false;
    }

    static boolean isUriRefusal(Throwable thrown) {
        Throwable cause = thrown;
        for (int depth = 0; cause != null && depth < MAX_CAUSES; depth++, cause = cause.getCause()) {
            StackTraceElement[] frames = cause.getStackTrace();
            if (cause instanceof IOException && frames.length > 0 && URI_CHECKS.equals(frames[0].getClassName())) {
                return true;
            }
        }
        return false;
    }
}
