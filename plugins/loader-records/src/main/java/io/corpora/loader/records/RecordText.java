package io.corpora.loader.records;

/**
 * One record rendered as {@code field: value} lines (lists of scalars on one line, comma-separated), which reads
 * well in a prompt. Refuses to grow past the per-record limit, so a huge record costs at most that much memory.
 */
final class RecordText {

    /** The record outgrew the limit; the loader names the record and the option. */
    static final class TooLarge extends RuntimeException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super(null, null, false, false);
        }
    }

    private final int maxChars;
    private final StringBuilder text = new StringBuilder();
    private boolean listOpen;
    private boolean listHasItems;

    RecordText(int maxChars) {
        this.maxChars = maxChars;
    }

    /** A {@code path: value} line; an empty path writes the bare value (a record that is a single scalar). */
    void field(String path, String value) {
        closeList();
        if (!path.isEmpty()) {
            append(path);
            append(": ");
        }
        append(value);
        append("\n");
    }

    /** Starts a one-line list of scalars: {@code path: a, b, c}. */
    void startList(String path) {
        closeList();
        if (!path.isEmpty()) {
            append(path);
            append(": ");
        }
        listOpen = true;
        listHasItems = false;
    }

    void listItem(String value) {
        if (listHasItems) {
            append(", ");
        }
        append(value);
        listHasItems = true;
    }

    void closeList() {
        if (listOpen) {
            append("\n");
            listOpen = false;
        }
    }

    boolean isBlank() {
        return text.chars().allMatch(Character::isWhitespace);
    }

    String build() {
        closeList();
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == '\n') {
            end--;
        }
        return text.substring(0, end);
    }

    private void append(String value) {
        if (text.length() + value.length() > maxChars) {
            throw new TooLarge();
        }
        text.append(value);
    }
}
