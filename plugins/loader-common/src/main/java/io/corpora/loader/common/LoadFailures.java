package io.corpora.loader.common;

import io.corpora.spi.loader.DocumentLoadException;

/** Failures every loader reports the same way. */
public final class LoadFailures {

    private LoadFailures() {}

    /**
     * The document parsed but holds no text to index. An error rather than an empty result, so an upload that
     * would produce zero chunks is visible to the user instead of silently succeeding.
     */
    public static DocumentLoadException noText(String fileName, String hint) {
        return new DocumentLoadException(DocumentLoadException.Reason.MALFORMED,
                "'" + fileName + "' contains no text to index" + (hint == null || hint.isEmpty() ? "" : "; " + hint));
    }
}
