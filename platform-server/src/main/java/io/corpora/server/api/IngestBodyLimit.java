package io.corpora.server.api;

import io.corpora.server.rest.Problem;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.Provider;
import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Bounds an ingest request's body before the JSON or multipart reader sees it: a declared Content-Length over the limit
 * is answered 413 at once (nothing of the body is read), and a body without one (chunked) is cut off with 413 as soon
 * as it passes the limit; a JSON body must also be UTF-8. JSON bodies: {@code corpora.ingest.maxJsonBytes} (default 4 MiB; larger documents go as
 * uploads). Multipart uploads: {@code corpora.ingest.maxRequestBytes} (default 100 MiB; each file is further limited by
 * {@code corpora.ingest.maxDocumentBytes}).
 */
@Provider
@IngestBody
public class IngestBodyLimit implements ContainerRequestFilter {

    private final long maxJsonBytes = setting("corpora.ingest.maxJsonBytes", 4L * 1024 * 1024);
    private final long maxRequestBytes = setting("corpora.ingest.maxRequestBytes", 100L * 1024 * 1024);

    private static long setting(String key, long defaultValue) {
        return ConfigProvider.getConfig().getOptionalValue(key, Long.class).orElse(defaultValue);
    }

    @Override
    public void filter(ContainerRequestContext request) {
        boolean multipart = request.getMediaType() != null && request.getMediaType().isCompatible(MediaType.MULTIPART_FORM_DATA_TYPE);
        long limit = multipart ? maxRequestBytes : maxJsonBytes;
        String what = multipart ? "an upload request" : "a JSON ingest request";
        if (request.getLength() > limit) {
            request.abortWith(tooLarge(what, request.getLength() + " bytes", limit));
            return;
        }
        if (multipart) {
            request.setEntityStream(new Bounded(request.getEntityStream(), limit, what));
            return;
        }
        // A JSON body is small enough to hold: read it whole (bounded) and refuse what is not UTF-8 (RFC 8259), which
        // the JSON reader would otherwise decode leniently, replacing bad bytes with U+FFFD in the stored text.
        byte[] body;
        try {
            body = request.getEntityStream().readNBytes((int) Math.min(Integer.MAX_VALUE - 8, limit + 1));
        } catch (IOException e) {
            throw new WebApplicationException(Problem.response(400, "invalid-request", "Invalid request", "the request body could not be read"));
        }
        if (body.length > limit) {
            request.abortWith(tooLarge(what, "more than " + limit + " bytes", limit));
            return;
        }
        int invalidAt = firstInvalidUtf8(body);
        if (invalidAt >= 0) {
            request.abortWith(Problem.response(400, "invalid-utf8", "Invalid request",
                    "the JSON body is not valid UTF-8 (first bad byte at offset " + invalidAt + ")"));
            return;
        }
        request.setEntityStream(new ByteArrayInputStream(body));
    }

    /** The offset of the first byte that is not part of well-formed UTF-8, or -1. */
    static int firstInvalidUtf8(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(8192);
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            if (result.isError()) {
                return in.position();
            }
            if (result.isUnderflow()) {
                return decoder.flush(out).isError() ? in.position() : -1;
            }
            out.clear();
        }
    }

    private static Response tooLarge(String what, String size, long limit) {
        return Problem.response(413, "request-too-large", "Payload too large", what + " of " + size + " is over the "
                + limit + "-byte limit" + (what.startsWith("a JSON") ? "; upload large documents as multipart files" : ""));
    }

    /** Fails the read that passes the limit with a 413 (a WebApplicationException, so readers pass it through). */
    private static final class Bounded extends FilterInputStream {
        private final long limit;
        private final String what;
        private long read;

        Bounded(InputStream in, long limit, String what) {
            super(in);
            this.limit = limit;
            this.what = what;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count(1);
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            if (n > 0) {
                count(n);
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long skipped = super.skip(n);
            count(skipped);
            return skipped;
        }

        private void count(long n) {
            read += n;
            if (read > limit) {
                throw new WebApplicationException(tooLarge(what, "more than " + limit + " bytes", limit));
            }
        }
    }
}
