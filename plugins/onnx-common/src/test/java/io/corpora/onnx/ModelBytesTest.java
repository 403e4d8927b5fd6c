package io.corpora.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelBytesTest {

    @Test
    void hashesTheBytesItRead(@TempDir Path dir) throws Exception {
        Path file = Files.write(dir.resolve("m.onnx"), "abc".getBytes());
        ModelBytes bytes = ModelBytes.fromPath(file, "model file");
        // SHA-256("abc"), FIPS 180-2 test vector.
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", bytes.sha256());
        assertNotEquals(bytes.sha256(), ModelBytes.of("other", "abd".getBytes()).sha256());
    }

    @Test
    void aMissingPathIsAClearError(@TempDir Path dir) {
        Path missing = dir.resolve("nope.onnx");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ModelBytes.fromPath(missing, "cross-encoder model"));
        assertTrue(e.getMessage().contains("cross-encoder model") && e.getMessage().contains("nope.onnx")
                && e.getMessage().contains("does not exist"), e.getMessage());
    }

    @Test
    void theBundledModelIsOnTheClassPath() {
        ModelBytes model = BundledModel.BGE_SMALL_EN_V15_Q.modelBytes();
        assertTrue(model.size() > 30_000_000, "bge-small-en-v1.5-q.onnx is about 34 MB, got " + model.size());
        assertEquals(64, model.sha256().length());
    }
}
