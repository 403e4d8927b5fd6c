package io.corpora.server.api;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a {@code multipart/form-data} body (RFC 7578) part by part straight from the request stream, keeping only the
 * part being read and never more of it than its limit. (The container's reader spools every part to a temporary file
 * that is deleted only at the next garbage collection, so a run of large uploads fills the disk.)
 *
 * <p>Usage: {@link #nextPart()} until null; after each, {@link #content(long)} reads that part's bytes.
 *
 * <p>Kept rather than replaced by commons-fileupload2-core: its streaming iterator would keep these guarantees (each
 * item a bounded stream, no temporary files), but it exists only as 2.0.0 milestones whose API still changes between
 * them, brings commons-io, and must be subclassed as an {@code AbstractFileUpload} whose other half spools parts to
 * {@code DiskFileItem}s; worth adopting once 2.0.0 is final.
 */
final class MultipartFormReader {

    static final int MAX_HEADER_BYTES = 16 * 1024;

    /** The headers of one part. @param fileName null for a plain field; @param contentType null when the part declares none */
    record PartHeaders(String name, String fileName, String contentType) {}

    /** A malformed body: 400. */
    static final class MalformedException extends IOException {
        private static final long serialVersionUID = 1L;

        MalformedException(String message) {
            super(message);
        }
    }

    /** A part over its limit: nothing after its first {@code limit + 1} bytes was read. */
    static final class PartTooLargeException extends IOException {
        private static final long serialVersionUID = 1L;

        PartTooLargeException(long limit) {
            super("part larger than " + limit + " bytes");
        }
    }

    private final InputStream in;
    private final byte[] delimiter;
    private final byte[] buffer = new byte[64 * 1024];
    private int position;
    private int limit;
    private boolean atStart = true;
    private boolean finished;
    private boolean contentPending;

    /** @param boundary the {@code boundary} parameter of the request's Content-Type */
    MultipartFormReader(InputStream in, String boundary) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > 70) {
            throw new IllegalArgumentException("a multipart/form-data request needs a boundary of 1 to 70 characters");
        }
        this.in = in;
        // Every delimiter is CRLF "--" boundary; the first one may open the body, so the body is read as if CRLF preceded it.
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        buffer[0] = '\r';
        buffer[1] = '\n';
        limit = 2;
    }

    /** The next part's headers, or null after the closing delimiter. Skips what is left of the previous part. */
    PartHeaders nextPart() throws IOException {
        if (finished) {
            return null;
        }
        if (atStart || contentPending) {
            skipToDelimiter(); // the preamble, or an unread part
            atStart = false;
        }
        int first = read();
        int second = read();
        if (first == '-' && second == '-') {
            finished = true;
            return null;
        }
        while (first == ' ' || first == '\t') { // transport padding before the CRLF
            first = second;
            second = read();
        }
        if (first != '\r' || second != '\n') {
            throw new MalformedException("a multipart delimiter must end its line");
        }
        Map<String, String> headers = headers();
        Map<String, String> disposition = parameters(headers.get("content-disposition"));
        if (!"form-data".equals(disposition.get(""))) {
            throw new MalformedException("every part needs 'Content-Disposition: form-data'");
        }
        String name = disposition.get("name");
        if (name == null) {
            throw new MalformedException("every part needs a name");
        }
        contentPending = true;
        return new PartHeaders(name, disposition.get("filename"), headers.get("content-type"));
    }

    /** The current part's bytes; {@link PartTooLargeException} as soon as they pass {@code maxBytes}. */
    byte[] content(long maxBytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        readUntilDelimiter(out, maxBytes);
        contentPending = false;
        return out.toByteArray();
    }

    private void skipToDelimiter() throws IOException {
        readUntilDelimiter(null, Long.MAX_VALUE);
        contentPending = false;
    }

    /**
     * Copies bytes up to the next delimiter. The delimiter's first byte (CR) occurs nowhere else in it (a boundary holds
     * no CR), so after a mismatch the match can only restart at that byte: the bytes matched so far were content.
     */
    private void readUntilDelimiter(ByteArrayOutputStream out, long maxBytes) throws IOException {
        long written = 0;
        int matched = 0;
        while (matched < delimiter.length) {
            int b = read();
            if (b < 0) {
                throw new MalformedException("the body ends before its closing delimiter");
            }
            if (b == (delimiter[matched] & 0xff)) {
                matched++;
                continue;
            }
            if (matched > 0) {
                written += matched;
                if (out != null) {
                    out.write(delimiter, 0, matched);
                }
                matched = b == '\r' ? 1 : 0;
                if (matched == 1) {
                    checkLimit(written, maxBytes);
                    continue;
                }
            }
            written++;
            checkLimit(written, maxBytes);
            if (out != null) {
                out.write(b);
            }
        }
        checkLimit(written, maxBytes);
    }

    private static void checkLimit(long written, long maxBytes) throws PartTooLargeException {
        if (written > maxBytes) {
            throw new PartTooLargeException(maxBytes);
        }
    }

    private Map<String, String> headers() throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int total = 0;
        while (true) {
            int b = read();
            if (b < 0) {
                throw new MalformedException("the body ends inside a part's headers");
            }
            if (++total > MAX_HEADER_BYTES) {
                throw new MalformedException("a part's headers are longer than " + MAX_HEADER_BYTES + " bytes");
            }
            if (b != '\n') {
                line.write(b);
                continue;
            }
            String text = line.toString(StandardCharsets.UTF_8);
            line.reset();
            if (text.endsWith("\r")) {
                text = text.substring(0, text.length() - 1);
            }
            if (text.isEmpty()) {
                return headers;
            }
            int colon = text.indexOf(':');
            if (colon <= 0) {
                throw new MalformedException("malformed part header");
            }
            headers.put(text.substring(0, colon).trim().toLowerCase(Locale.ROOT), text.substring(colon + 1).trim());
        }
    }

    /**
     * {@code form-data; name="file"; filename="a b.txt"} as {"" → form-data, name → file, filename → a b.txt}. Quoted
     * values end at the next quote: browsers percent-encode quotes and line breaks in names, and send backslashes as is.
     */
    static Map<String, String> parameters(String header) {
        Map<String, String> parameters = new LinkedHashMap<>();
        if (header == null) {
            return parameters;
        }
        int i = header.indexOf(';');
        parameters.put("", (i < 0 ? header : header.substring(0, i)).trim().toLowerCase(Locale.ROOT));
        while (i >= 0 && i < header.length()) {
            int equals = header.indexOf('=', i + 1);
            if (equals < 0) {
                break;
            }
            String key = header.substring(i + 1, equals).trim().toLowerCase(Locale.ROOT);
            int start = equals + 1;
            String value;
            if (start < header.length() && header.charAt(start) == '"') {
                int end = header.indexOf('"', start + 1);
                value = header.substring(start + 1, end < 0 ? header.length() : end);
                i = end < 0 ? -1 : header.indexOf(';', end);
            } else {
                int end = header.indexOf(';', start);
                value = header.substring(start, end < 0 ? header.length() : end).trim();
                i = end;
            }
            parameters.putIfAbsent(key, value);
        }
        return parameters;
    }

    private int read() throws IOException {
        if (position == limit) {
            int n = in.read(buffer, 0, buffer.length);
            if (n <= 0) {
                return -1;
            }
            position = 0;
            limit = n;
        }
        return buffer[position++] & 0xff;
    }
}
