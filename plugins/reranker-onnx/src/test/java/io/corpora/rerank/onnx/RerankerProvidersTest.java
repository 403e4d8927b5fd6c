package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.rerank.RerankerProvider;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class RerankerProvidersTest {

    @Test
    void bothProvidersAreDiscovered() {
        List<String> names = ServiceLoader.load(RerankerProvider.class).stream().map(p -> p.get().name()).sorted().toList();
        assertEquals(List.of("maxsim", "onnx-cross-encoder"), names);
    }
}
