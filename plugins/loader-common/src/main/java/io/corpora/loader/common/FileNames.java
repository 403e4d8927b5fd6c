package io.corpora.loader.common;

import io.corpora.spi.loader.LoadRequest;

/**
 * File names come from uploads and end up in error messages, logs and problem responses. Loaders never use them
 * as paths (so {@code ../../etc/passwd} is only text), but a name can still carry line breaks that forge log lines,
 * bidirectional-override characters that disguise it, or megabytes of text. This makes it safe to show.
 */
public final class FileNames {

    static final int MAX_LENGTH = 200;

    private FileNames() {}

    /** The same request (bytes not copied) with a file name safe to show. */
    public static LoadRequest forMessages(LoadRequest request) {
        String safe = forMessages(request.fileName());
        return safe.equals(request.fileName()) ? request
                : new LoadRequest(request.bytes(), request.mediaType(), request.charset(), safe);
    }

    /** Control and bidi-control characters become '?', and the name is cut at {@value #MAX_LENGTH} characters. */
    public static String forMessages(String name) {
        StringBuilder safe = new StringBuilder(Math.min(name.length(), MAX_LENGTH + 1));
        for (int i = 0; i < name.length() && safe.length() < MAX_LENGTH; i++) {
            char c = name.charAt(i);
            safe.append(Character.isISOControl(c) || isBidiControl(c) ? '?' : c);
        }
        if (name.length() > MAX_LENGTH) {
            safe.append('…');
        }
        return safe.isEmpty() ? "document" : safe.toString();
    }

    private static boolean isBidiControl(char c) {
        return (c >= '\u202A' && c <= '\u202E') || (c >= '\u2066' && c <= '\u2069') || c == '\u200E' || c == '\u200F'
                || c == '\u061C';
    }
}
