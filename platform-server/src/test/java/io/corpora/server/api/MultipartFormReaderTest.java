package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming multipart/form-data reader, on bodies written by hand (as browsers and the CLI write them). */
class MultipartFormReaderTest {

    private static final String BOUNDARY = "----corpora7MA4YWxk";

    private static byte[] body(String... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("preamble to ignore\r\n".getBytes(StandardCharsets.UTF_8));
        for (String part : parts) {
            out.writeBytes(("--" + BOUNDARY + "\r\n" + part + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        out.writeBytes(("--" + BOUNDARY + "--\r\nepilogue").getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** Hands out one byte per read, so every delimiter straddles buffer refills. */
    private static InputStream trickling(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(1, length));
            }
        };
    }

    private record Read(MultipartFormReader.PartHeaders headers, String content) {}

    private static List<Read> readAll(InputStream in) throws IOException {
        MultipartFormReader form = new MultipartFormReader(in, BOUNDARY);
        List<Read> parts = new ArrayList<>();
        for (MultipartFormReader.PartHeaders part; (part = form.nextPart()) != null; ) {
            parts.add(new Read(part, new String(form.content(1_000_000), StandardCharsets.UTF_8)));
        }
        return parts;
    }

    @Test
    void readsFieldsAndFilesWithTheirNamesAndTypes() throws IOException {
        String tricky = "line one\r\n--" + BOUNDARY.substring(0, 10) + " not a delimiter\r\n\r\r\n-- also not\r\n";
        byte[] body = body(
                "Content-Disposition: form-data; name=\"partition\"\r\n\r\nlegal",
                "Content-Disposition: form-data; name=\"file\"; filename=\"docs/a b.md\"\r\nContent-Type: text/markdown; charset=utf-8\r\n\r\n" + tricky,
                "content-disposition: form-data; filename=\"C:\\x\\y.txt\"; name=file\r\n\r\n");
        for (InputStream in : List.of(new ByteArrayInputStream(body), trickling(body))) {
            List<Read> parts = readAll(in);
            assertEquals(3, parts.size());
            assertEquals(new MultipartFormReader.PartHeaders("partition", null, null), parts.get(0).headers());
            assertEquals("legal", parts.get(0).content());
            assertEquals(new MultipartFormReader.PartHeaders("file", "docs/a b.md", "text/markdown; charset=utf-8"), parts.get(1).headers());
            assertEquals(tricky, parts.get(1).content());
            assertEquals("C:\\x\\y.txt", parts.get(2).headers().fileName(), "backslashes are kept, so such names can be refused");
            assertEquals("", parts.get(2).content());
        }
    }

    @Test
    void binaryContentRoundTrips() throws IOException {
        byte[] binary = new byte[300_000];
        new Random(7).nextBytes(binary);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"x.bin\"\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(binary);
        body.writeBytes(("\r\n--" + BOUNDARY + "--").getBytes(StandardCharsets.UTF_8));
        MultipartFormReader form = new MultipartFormReader(new ByteArrayInputStream(body.toByteArray()), BOUNDARY);
        assertEquals("x.bin", form.nextPart().fileName());
        assertArrayEquals(binary, form.content(binary.length));
        assertNull(form.nextPart());
    }

    @Test
    void aPartOverItsLimitStopsTheReadingThere() throws IOException {
        byte[] body = body("Content-Disposition: form-data; name=\"file\"; filename=\"big.txt\"\r\n\r\n" + "a".repeat(10_000));
        int[] consumed = {0};
        InputStream counting = new ByteArrayInputStream(body) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                int n = super.read(buffer, offset, Math.min(100, length));
                consumed[0] += Math.max(n, 0);
                return n;
            }
        };
        MultipartFormReader form = new MultipartFormReader(counting, BOUNDARY);
        form.nextPart();
        assertThrows(MultipartFormReader.PartTooLargeException.class, () -> form.content(1000));
        assertTrue(consumed[0] < 1300, "read " + consumed[0] + " bytes for a 1000-byte limit");
    }

    @Test
    void unreadPartsAreSkipped() throws IOException {
        MultipartFormReader form = new MultipartFormReader(new ByteArrayInputStream(body(
                "Content-Disposition: form-data; name=\"a\"\r\n\r\nfirst",
                "Content-Disposition: form-data; name=\"b\"\r\n\r\nsecond")), BOUNDARY);
        assertEquals("a", form.nextPart().name());
        assertEquals("b", form.nextPart().name());
        assertEquals("second", new String(form.content(100), StandardCharsets.UTF_8));
        assertNull(form.nextPart());
    }

    @Test
    void malformedBodiesAreNamed() {
        byte[] truncated = ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nno end").getBytes(StandardCharsets.UTF_8);
        MultipartFormReader.MalformedException end = assertThrows(MultipartFormReader.MalformedException.class,
                () -> readAll(new ByteArrayInputStream(truncated)));
        assertTrue(end.getMessage().contains("closing delimiter"), end.getMessage());

        byte[] noDisposition = body("Content-Type: text/plain\r\n\r\nx");
        assertThrows(MultipartFormReader.MalformedException.class, () -> readAll(new ByteArrayInputStream(noDisposition)));

        byte[] hugeHeader = body("Content-Disposition: form-data; name=\"" + "n".repeat(20_000) + "\"\r\n\r\nx");
        MultipartFormReader.MalformedException header = assertThrows(MultipartFormReader.MalformedException.class,
                () -> readAll(new ByteArrayInputStream(hugeHeader)));
        assertTrue(header.getMessage().contains("headers are longer"), header.getMessage());

        assertThrows(IllegalArgumentException.class, () -> new MultipartFormReader(new ByteArrayInputStream(new byte[0]), null));
    }
}
