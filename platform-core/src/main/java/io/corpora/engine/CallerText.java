package io.corpora.engine;

/**
 * Text a caller sends that the server stores or passes to a store (metadata values, sources, queries, filter values):
 * every store must be able to hold it, so it may contain no NUL (PostgreSQL refuses it in text and JSON), no other C0
 * control character but tab, line feed and carriage return (invisible, and never meaningful in metadata), and no lone
 * UTF-16 surrogate (not text: it has no UTF-8 form). Refused with an {@link IllegalArgumentException} naming the field,
 * the character and where it is, so the caller gets a 400 before any plugin is called.
 */
public final class CallerText {

    private CallerText() {}

    /** The value, when storable; {@code what} names it in the message (e.g. "metadata 'author'"). */
    public static String require(String what, String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') {
                throw new IllegalArgumentException(what + " contains the control character U+" + String.format("%04X", (int) c)
                        + " at index " + i + (c == 0 ? " (NUL)" : "") + "; only tab, line feed and carriage return are accepted");
            }
            if (Character.isSurrogate(c)) {
                boolean paired = Character.isHighSurrogate(c) && i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
                if (!paired) {
                    throw new IllegalArgumentException(what + " contains a lone UTF-16 surrogate at index " + i + "; it is not text");
                }
                i++;
            }
        }
        return value;
    }
}
