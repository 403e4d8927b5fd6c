package io.corpora.spi.loader;

import java.util.Objects;

/**
 * The input to a loader.
 *
 * @param bytes     the raw content (callers must not mutate it)
 * @param mediaType the declared media type, lower-case, without parameters
 * @param charset   the declared charset (from a {@code charset=} parameter), or null to detect
 * @param fileName  the original file name, for messages only (never used as a path)
 */
public record LoadRequest(byte[] bytes, String mediaType, String charset, String fileName) {
    public LoadRequest {
        Objects.requireNonNull(bytes, "bytes");
        Objects.requireNonNull(mediaType, "mediaType");
        fileName = fileName == null ? "document" : fileName;
    }
}
