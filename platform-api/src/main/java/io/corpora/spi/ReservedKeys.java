package io.corpora.spi;

import java.util.Set;

/**
 * Metadata keys written only by the server. Every key starting with {@value #PREFIX} is reserved:
 * ingest strips callers' copies, then stamps the server's own values.
 */
public final class ReservedKeys {

    public static final String PREFIX = "_";
    public static final String TENANT = "_tenant";
    public static final String PARTITION = "_partition";
    /** The {@link EmbedderFingerprint#id()} of the embedder that produced the chunk's vector. */
    public static final String EMBEDDER = "_embedder";
    public static final String DOCUMENT = "_document";
    /** The document version the chunk belongs to (atomic replace keeps two versions side by side briefly). */
    public static final String VERSION = "_version";

    public static final Set<String> ALL = Set.of(TENANT, PARTITION, EMBEDDER, DOCUMENT, VERSION);

    private ReservedKeys() {}

    public static boolean isReserved(String key) {
        return key != null && key.startsWith(PREFIX);
    }
}
