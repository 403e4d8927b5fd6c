package io.corpora.spi.loader;

/**
 * Extracts text from one family of formats. Loaders enforce their declared limits (bytes, pages, time)
 * and fail with {@link DocumentLoadException}; they never return partial text silently.
 * Implementations are thread-safe.
 *
 * <p><b>Failures</b> ({@link io.corpora.spi.PluginException}): an unreadable document or one over a limit is a
 * {@link DocumentLoadException} (a caller error, answered 422 or 413 naming the document); a loader that cannot work at
 * all (e.g. a missing native library) throws a {@code PluginException} of kind
 * {@link io.corpora.spi.FailureKind#PERMANENT}. A plain {@link IllegalArgumentException} is read as a caller error too
 * (the SPI's value types refuse what a document holds with one); any other exception as transient. Loaders never put
 * {@link io.corpora.spi.ReservedKeys reserved keys} into the metadata they return.
 */
public interface DocumentLoader {

    LoadedDocument load(LoadRequest request) throws DocumentLoadException;
}
