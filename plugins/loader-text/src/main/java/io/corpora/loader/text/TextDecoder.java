package io.corpora.loader.text;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.LoadRequest;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/**
 * Turns bytes into text without guessing silently: a byte-order mark wins, then the declared charset, then
 * UTF-8. Decoding is strict (malformed or unmappable input is an error naming the byte offset and line), so a
 * mis-declared file never becomes text full of replacement characters.
 */
final class TextDecoder {

    /** The decoded text (line endings normalised to {@code \n}, no BOM) and the charset that decoded it. */
    record DecodedText(String text, Charset charset) {}

    private record Bom(Charset charset, int length) {}

    private static final Charset UTF_32BE = Charset.forName("UTF-32BE");
    private static final Charset UTF_32LE = Charset.forName("UTF-32LE");

    private TextDecoder() {}

    /** Decodes an admitted request, within its deadline: the first step of every text loader. */
    static DecodedText decode(LoaderLimits.Admitted admitted) {
        DecodedText decoded = decode(admitted.request());
        admitted.deadline().check("decoding the text");
        return decoded;
    }

    static DecodedText decode(LoadRequest request) {
        byte[] bytes = request.bytes();
        Bom bom = detectBom(bytes);
        Charset charset;
        String origin;
        if (bom != null) {
            charset = bom.charset();
            origin = "its byte-order mark";
        } else if (request.charset() != null && !request.charset().isBlank()) {
            charset = declared(request);
            origin = "its declared charset";
        } else {
            charset = StandardCharsets.UTF_8;
            origin = null;
        }
        int offset = bom == null ? 0 : bom.length();
        String text = strictDecode(bytes, offset, charset, origin, request.fileName());
        int nul = text.indexOf('\0');
        if (nul >= 0) {
            throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' contains a NUL character (at character "
                    + nul + "): it looks like a binary file, or UTF-16/32 text without a byte-order mark. Upload text files "
                    + "only, and declare the charset if it is not UTF-8.");
        }
        return new DecodedText(normaliseLineEndings(text), charset);
    }

    private static Bom detectBom(byte[] b) {
        if (startsWith(b, 0x00, 0x00, 0xFE, 0xFF)) {
            return new Bom(UTF_32BE, 4);
        }
        if (startsWith(b, 0xFF, 0xFE, 0x00, 0x00)) {
            return new Bom(UTF_32LE, 4);
        }
        if (startsWith(b, 0xEF, 0xBB, 0xBF)) {
            return new Bom(StandardCharsets.UTF_8, 3);
        }
        if (startsWith(b, 0xFE, 0xFF)) {
            return new Bom(StandardCharsets.UTF_16BE, 2);
        }
        if (startsWith(b, 0xFF, 0xFE)) {
            return new Bom(StandardCharsets.UTF_16LE, 2);
        }
        return null;
    }

    private static boolean startsWith(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }

    private static Charset declared(LoadRequest request) {
        String name = request.charset().trim();
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new DocumentLoadException(Reason.UNSUPPORTED, "'" + request.fileName() + "' declares charset '" + shorten(name)
                    + "', which this server does not know; use UTF-8 or a standard charset name such as windows-1252");
        }
    }

    private static String strictDecode(byte[] bytes, int offset, Charset charset, String origin, String fileName) {
        CharsetDecoder decoder = charset.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes, offset, bytes.length - offset);
        CharBuffer out = CharBuffer.allocate((int) Math.min(Integer.MAX_VALUE - 16,
                (long) Math.ceil((bytes.length - offset) * (double) decoder.maxCharsPerByte()) + 16));
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError() && !result.isOverflow()) {
            result = decoder.flush(out);
        }
        if (result.isError()) {
            throw invalid(bytes, in.position(), result.length(), charset, origin, fileName);
        }
        if (result.isOverflow()) {
            // Cannot happen with maxCharsPerByte sizing; fail loudly rather than return part of the text.
            throw new IllegalStateException("decoding '" + fileName + "' as " + charset.name() + " overflowed its buffer");
        }
        out.flip();
        return out.toString();
    }

    private static DocumentLoadException invalid(byte[] bytes, int position, int badLength, Charset charset, String origin,
                                                 String fileName) {
        int line = 1;
        for (int i = 0; i < position && i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                line++;
            }
        }
        String at = position + badLength >= bytes.length
                ? String.format(Locale.ROOT, "the last bytes, from offset %d (line %d), are a character cut off at the end of the file",
                        position, line)
                : String.format(Locale.ROOT, "byte 0x%02X at offset %d (line %d) is not a valid character",
                        bytes[position] & 0xFF, position, line);
        String hint = origin == null
                ? ". If the file uses another encoding, upload it with its charset, e.g. Content-Type: text/plain; charset=windows-1252"
                : " (the charset was taken from " + origin + "). Check the file's real encoding";
        return new DocumentLoadException(Reason.MALFORMED,
                "'" + fileName + "' is not valid " + charset.name() + ": " + at + hint);
    }

    private static String normaliseLineEndings(String text) {
        return text.indexOf('\r') < 0 ? text : text.replace("\r\n", "\n").replace('\r', '\n');
    }

    private static String shorten(String value) {
        return value.length() > 60 ? value.substring(0, 60) + "…" : value;
    }
}
