package io.corpora.spi.loader;

/**
 * Extracts text from one family of formats. Loaders enforce their declared limits (bytes, pages, time)
 * and fail with {@link DocumentLoadException}; they never return partial text silently.
 * Implementations are thread-safe.
 */
public interface DocumentLoader {

    LoadedDocument load(LoadRequest request) throws DocumentLoadException;
}
