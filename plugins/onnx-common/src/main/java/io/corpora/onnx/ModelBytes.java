package io.corpora.onnx;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The bytes of a model or tokenizer file with where they came from and their SHA-256, read from the class path
 * (a bundled model) or from an operator-supplied path. Errors name the file and the reason.
 */
public final class ModelBytes {

    private final String source;
    private final byte[] bytes;
    private final String sha256;

    private ModelBytes(String source, byte[] bytes) {
        this.source = source;
        this.bytes = bytes;
        this.sha256 = sha256(bytes);
    }

    /** A resource at the root of (or inside) a jar visible to {@code loader}. */
    public static ModelBytes fromClasspath(ClassLoader loader, String resource) {
        try (InputStream in = loader.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("bundled model resource '" + resource + "' is missing from the class path;"
                        + " the plugin folder must hold the jar that carries it");
            }
            return new ModelBytes("classpath:" + resource, in.readAllBytes());
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bundled model resource '" + resource + "': " + e.getMessage(), e);
        }
    }

    /** An operator-supplied file; a missing or unreadable path is an {@link IllegalArgumentException}. */
    public static ModelBytes fromPath(Path path, String what) {
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException(what + " '" + path.toAbsolutePath() + "' does not exist or is not a file");
        }
        try {
            return new ModelBytes(path.toAbsolutePath().toString(), Files.readAllBytes(path));
        } catch (IOException e) {
            throw new IllegalArgumentException(what + " '" + path.toAbsolutePath() + "' cannot be read: " + e.getMessage(), e);
        }
    }

    /** Bytes given directly, e.g. by a test that alters a model. */
    public static ModelBytes of(String source, byte[] bytes) {
        return new ModelBytes(source, bytes.clone());
    }

    public String source() {
        return source;
    }

    /** The raw bytes; callers must not modify them. */
    byte[] bytes() {
        return bytes;
    }

    public InputStream openStream() {
        return new java.io.ByteArrayInputStream(bytes);
    }

    public int size() {
        return bytes.length;
    }

    /** Lower-case hex SHA-256 of the bytes. */
    public String sha256() {
        return sha256;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }

    @Override
    public String toString() {
        return source + " (" + bytes.length + " bytes, sha256 " + sha256.substring(0, 12) + "…)";
    }
}
