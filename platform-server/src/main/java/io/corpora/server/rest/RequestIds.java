package io.corpora.server.rest;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The id of the request being served on this thread: the caller's {@code X-Request-Id} when it is a sane token, a new
 * UUID otherwise. Besides a thread-local (for log messages and problem bodies), it is put into Liberty's
 * {@code LogRecordContext} as the extension {@code requestId}, so every JSON log record written while serving the request
 * carries an {@code ext_requestId} field. That Liberty API is looked up reflectively: it does not exist outside Liberty.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    static final String LOG_EXTENSION = "requestId";
    private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:\\-]{1,128}");
    private static final ThreadLocal<String> CURRENT = new ThreadLocal<>();
    private static final MethodHandle ADD_EXTENSION = logRecordContext("addExtension", MethodType.methodType(void.class, String.class, String.class));
    private static final MethodHandle REMOVE_EXTENSION = logRecordContext("removeExtension", MethodType.methodType(boolean.class, String.class));

    private RequestIds() {}

    /** The caller's id if acceptable (no spaces, quotes or control characters that could forge log lines), else a new one. */
    public static String accept(String offered) {
        return offered != null && ACCEPTED.matcher(offered).matches() ? offered : UUID.randomUUID().toString();
    }

    /** The current request's id, or null outside a request. */
    public static String current() {
        return CURRENT.get();
    }

    static void begin(String requestId) {
        CURRENT.set(requestId);
        invoke(ADD_EXTENSION, requestId);
    }

    static void end() {
        CURRENT.remove();
        invoke(REMOVE_EXTENSION, null);
    }

    private static void invoke(MethodHandle handle, String requestId) {
        if (handle == null) {
            return;
        }
        try {
            if (requestId == null) {
                handle.invoke(LOG_EXTENSION);
            } else {
                handle.invoke(LOG_EXTENSION, requestId);
            }
        } catch (Throwable e) {
            // logging context is best effort: a request is never failed for it
        }
    }

    private static MethodHandle logRecordContext(String method, MethodType type) {
        try {
            Class<?> context = Class.forName("com.ibm.websphere.logging.hpel.LogRecordContext");
            return MethodHandles.publicLookup().findStatic(context, method, type);
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }
}
