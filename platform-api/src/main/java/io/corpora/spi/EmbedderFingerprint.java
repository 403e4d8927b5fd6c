package io.corpora.spi;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What makes two embeddings comparable. Vectors of different fingerprints are never mixed: every chunk
 * carries its fingerprint's {@link #id()} and searches filter on it.
 *
 * @param provider      the embedder provider name, e.g. {@code onnx}
 * @param model         the model name, e.g. {@code bge-small-en-v1.5-q}
 * @param dimension     vector width
 * @param normalized    whether vectors are L2-normalised
 * @param revision      a hash of the model bytes (or the hosted model's version), so a new build is a new fingerprint
 */
public record EmbedderFingerprint(String provider, String model, int dimension, boolean normalized, String revision) {

    public EmbedderFingerprint {
        requireToken("provider", provider);
        requireToken("model", model);
        requireToken("revision", revision);
        if (dimension < 1 || dimension > 65_536) {
            throw new IllegalArgumentException("dimension must be 1..65536, got " + dimension);
        }
    }

    /**
     * A stable, filter-safe id: the model name, the width, and 16 hex characters of the SHA-256 of every field,
     * e.g. {@code bge-small-en-v1.5-q.384.4f1c2a9e0b7d3c11}.
     */
    public String id() {
        String id = IDS.get(this);
        if (id == null) {
            String canonical = provider + '\n' + model + '\n' + dimension + '\n' + (normalized ? "l2" : "raw") + '\n' + revision;
            id = sanitize(model) + "." + dimension + "." + sha256(canonical).substring(0, 16);
            if (IDS.size() >= MAX_REMEMBERED_IDS) {
                IDS.clear(); // a bound for a caller inventing fingerprints; a server holds a handful
            }
            IDS.put(this, id);
        }
        return id;
    }

    /** Ids computed so far: every retrieval asks for its embedder's id, and a SHA-256 and a regex each time add up. */
    private static final Map<EmbedderFingerprint, String> IDS = new ConcurrentHashMap<>();
    private static final int MAX_REMEMBERED_IDS = 1024;

    private static String sanitize(String value) {
        return value.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9._-]", "-");
    }

    static String sha256(String value) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }

    private static void requireToken(String field, String value) {
        Objects.requireNonNull(value, field);
        if (value.isBlank() || value.length() > 256) {
            throw new IllegalArgumentException("fingerprint " + field + " must be 1..256 characters");
        }
    }
}
