package io.corpora.loader.text;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.testkit.Loaders;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TextLoaderTest {

    private final DocumentLoader loader = Loaders.create("text", Map.of());

    private LoadedDocument load(byte[] bytes, String charset) {
        return loader.load(new LoadRequest(bytes, "text/plain", charset, "notes.txt"));
    }

    private DocumentLoadException failure(byte[] bytes, String charset) {
        return assertThrows(DocumentLoadException.class, () -> load(bytes, charset));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    @Test
    void providerDeclaresMediaTypesExtensionsAndLimits() {
        var provider = Loaders.provider("text");
        assertEquals(Set.of("text/plain"), provider.mediaTypes());
        assertTrue(provider.fileExtensions().contains("txt"));
        assertEquals(Set.of("maxBytes", "timeout"),
                Set.copyOf(provider.configOptions().stream().map(o -> o.name()).toList()));
    }

    @Test
    void utf8TextIsOneProseSection() {
        LoadedDocument doc = load("Grüße aus Köln — 東京\nsecond line".getBytes(StandardCharsets.UTF_8), null);
        assertEquals(ContentFormat.PROSE, doc.format());
        assertEquals(1, doc.sections().size());
        assertEquals("Grüße aus Köln — 東京\nsecond line", doc.sections().get(0).text());
        assertEquals("UTF-8", doc.metadata().get("charset"));
    }

    @Test
    void invalidUtf8IsMalformedNamingTheByteOffsetLineAndTheFix() {
        byte[] bytes = concat("line one\nca".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xC3, 0x28},
                "fe".getBytes(StandardCharsets.US_ASCII));
        DocumentLoadException e = failure(bytes, null);
        assertEquals(Reason.MALFORMED, e.reason());
        assertEquals("'notes.txt' is not valid UTF-8: byte 0xC3 at offset 11 (line 2) is not a valid character. "
                + "If the file uses another encoding, upload it with its charset, e.g. Content-Type: text/plain; charset=windows-1252",
                e.getMessage());
    }

    @Test
    void truncatedMultiByteCharacterAtTheEndIsMalformed() {
        byte[] bytes = concat("ok ".getBytes(StandardCharsets.US_ASCII), new byte[] {(byte) 0xE6, (byte) 0x9D});
        DocumentLoadException e = failure(bytes, null);
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("the end of the file"), e.getMessage());
    }

    @Test
    void declaredCharsetDecodesBytesThatAreNotUtf8() {
        byte[] windows1252 = {'c', 'a', 'f', (byte) 0xE9, ' ', (byte) 0x80, '5'};
        LoadedDocument doc = load(windows1252, "windows-1252");
        assertEquals("café €5", doc.sections().get(0).text());
        assertEquals("windows-1252", doc.metadata().get("charset"));
    }

    @Test
    void bytesUnmappableInTheDeclaredCharsetAreMalformedNotReplaced() {
        DocumentLoadException e = failure(new byte[] {'a', (byte) 0x81, 'b'}, "windows-1252");
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("not valid windows-1252: byte 0x81 at offset 1")
                && e.getMessage().contains("declared charset"), e.getMessage());
    }

    @Test
    void unknownDeclaredCharsetIsUnsupported() {
        DocumentLoadException e = failure("x".getBytes(StandardCharsets.US_ASCII), "klingon-8");
        assertEquals(Reason.UNSUPPORTED, e.reason());
        assertTrue(e.getMessage().contains("'klingon-8'"), e.getMessage());
    }

    @Test
    void byteOrderMarkWinsOverTheDeclaredCharsetAndIsStripped() {
        byte[] utf16 = concat(new byte[] {(byte) 0xFF, (byte) 0xFE}, "héllo".getBytes(StandardCharsets.UTF_16LE));
        assertEquals("héllo", load(utf16, "utf-8").sections().get(0).text());
        byte[] utf8 = concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, "plain".getBytes(StandardCharsets.UTF_8));
        assertEquals("plain", load(utf8, null).sections().get(0).text());
    }

    @Test
    void utf16WithoutBomOrBinaryIsRefusedBecauseOfNulCharacters() {
        DocumentLoadException e = failure("hello".getBytes(StandardCharsets.UTF_16LE), null);
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("NUL character"), e.getMessage());
    }

    @Test
    void lineEndingsAreNormalised() {
        assertEquals("a\nb\nc", load("a\r\nb\rc".getBytes(StandardCharsets.US_ASCII), null).sections().get(0).text());
    }

    @Test
    void whitespaceOnlyFileIsAnErrorNotAnEmptyDocument() {
        DocumentLoadException e = failure(" \n\t\n".getBytes(StandardCharsets.US_ASCII), null);
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("contains no text"), e.getMessage());
    }

    @Test
    void a200MegabyteUploadIsRefusedAsTooLargeWithDefaultLimits() {
        DocumentLoadException e = failure(new byte[200 * 1024 * 1024], null);
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertEquals("'notes.txt' is 200.0 MB; this loader accepts at most 10.0 MB (option 'maxBytes'). "
                + "Split the document into smaller files.", e.getMessage());
    }

    @Test
    void hostileFileNamesAreOnlyEverShownSafely() {
        LoadRequest request = new LoadRequest(new byte[] {(byte) 0xFF}, "text/plain", null, "../../etc/passwd\nFAKE LOG LINE");
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> loader.load(request));
        assertTrue(e.getMessage().startsWith("'../../etc/passwd?FAKE LOG LINE' is not valid UTF-8"), e.getMessage());
    }

    @Test
    void configuredByteLimitIsEnforced() {
        DocumentLoader small = Loaders.create("text", Map.of("maxBytes", "4"));
        assertEquals("1234", small.load(new LoadRequest("1234".getBytes(StandardCharsets.US_ASCII), "text/plain", null, "a.txt"))
                .sections().get(0).text());
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> small.load(new LoadRequest("12345".getBytes(StandardCharsets.US_ASCII), "text/plain", null, "a.txt")));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }
}
