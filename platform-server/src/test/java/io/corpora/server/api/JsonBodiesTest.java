package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The strict UTF-8 check JSON ingest bodies pass before the (lenient) JSON reader sees them. */
class JsonBodiesTest {

    private static int check(int... bytes) {
        byte[] data = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            data[i] = (byte) bytes[i];
        }
        return JsonBodies.firstInvalidUtf8(data);
    }

    @Test
    void wellFormedUtf8Passes() {
        assertEquals(-1, JsonBodies.firstInvalidUtf8("{\"text\": \"café — 東京 🦡\"}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(-1, JsonBodies.firstInvalidUtf8(("x".repeat(20_000) + "é").getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void malformedSequencesAreFoundAtTheirOffset() {
        assertEquals(3, check('c', 'a', 'f', 0xE9, ' '), "a Latin-1 byte");
        assertEquals(1, check('a', 0xC0, 0x80), "an overlong NUL");
        assertEquals(0, check(0xED, 0xA0, 0x80), "an encoded surrogate");
        assertEquals(2, check('a', 'b', 0xE2, 0x82), "a sequence cut off at the end");
        assertEquals(1, check('a', 0xFF), "a byte that never occurs in UTF-8");
    }

    private static int tooDeep(String json, int maxDepth) {
        return JsonBodies.firstTooDeep(json.getBytes(StandardCharsets.UTF_8), maxDepth);
    }

    @Test
    void nestingIsMeasuredOutsideStrings() {
        assertEquals(-1, tooDeep("{\"a\":[1,{\"b\":[]}]}", 4));
        assertEquals(13, tooDeep("{\"a\":[1,{\"b\":[]}]}", 3), "the fourth level opens at the inner array");
        assertEquals(-1, tooDeep("{\"text\":\"[[[[[[{{{{\\\"]]]\"}", 1), "brackets in strings, and escaped quotes, are text");
        assertEquals(64, tooDeep("[".repeat(100_000), 64));
        assertEquals(-1, tooDeep("[]".repeat(100_000), 1), "depth, not count");
    }
}
