package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class DocumentMetadataTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Provide
    Arbitrary<Map<String, Object>> metadata() {
        Arbitrary<String> text = Arbitraries.of("a", "Z", "0", " ", "\"", "\\", "\t", "\n", "\r", "/", "é", "€", "\uD83D\uDCDA")
                .list().ofMaxSize(20).map(units -> String.join("", units));
        Arbitrary<Object> scalar = Arbitraries.oneOf(text.map(Object.class::cast), Arbitraries.longs().map(Object.class::cast),
                Arbitraries.doubles().map(Object.class::cast), Arbitraries.of(true, false).map(Object.class::cast));
        Arbitrary<Object> value = Arbitraries.oneOf(scalar, scalar.list().ofMaxSize(4).map(Object.class::cast));
        return Arbitraries.maps(Arbitraries.strings().withChars("abc_.-").ofMinLength(1).ofMaxLength(8), value).ofMaxSize(6)
                .map(LinkedHashMap::new);
    }

    @Property(tries = 500)
    void measuresTheCompactJsonAJsonLibraryWrites(@ForAll("metadata") Map<String, Object> metadata) throws Exception {
        assertEquals(JSON.writeValueAsString(metadata).getBytes(StandardCharsets.UTF_8).length, DocumentMetadata.jsonBytes(metadata),
                JSON.writeValueAsString(metadata));
        assertEquals(2, DocumentMetadata.jsonBytes(Map.of()));
        assertEquals("{\"k\":[1,\"x\"]}".length(), DocumentMetadata.jsonBytes(Map.of("k", List.of(1, "x"))));
    }
}
