package io.corpora.server.api;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Bounds an ingest request's body before the JSON or multipart reader sees it: a declared Content-Length over the limit
 * is answered 413 at once (nothing of the body is read), and a body without one (chunked) is cut off with 413 as soon
 * as it passes the limit; a JSON body must also be UTF-8 and not too deeply nested ({@link JsonBodies}). JSON bodies:
 * {@code corpora.ingest.maxJsonBytes} (default 4 MiB; larger documents go as uploads). Multipart uploads: {@code corpora.ingest.maxRequestBytes} (default 100 MiB; each file is further limited by
 * {@code corpora.ingest.maxDocumentBytes}).
 */
@Provider
@IngestBody
public class IngestBodyLimit implements ContainerRequestFilter {

    private final long maxJsonBytes = setting("corpora.ingest.maxJsonBytes", 4L * 1024 * 1024);
    private final long maxRequestBytes = setting("corpora.ingest.maxRequestBytes", 100L * 1024 * 1024);
    private static final String UPLOAD = "an upload request";

    private static long setting(String key, long defaultValue) {
        return ConfigProvider.getConfig().getOptionalValue(key, Long.class).orElse(defaultValue);
    }

    @Override
    public void filter(ContainerRequestContext request) {
        boolean multipart = request.getMediaType() != null && request.getMediaType().isCompatible(MediaType.MULTIPART_FORM_DATA_TYPE);
        if (!multipart) {
            JsonBodies.check(request, maxJsonBytes, "a JSON ingest request", "; upload large documents as multipart files");
            return;
        }
        if (request.getLength() > maxRequestBytes) {
            request.abortWith(JsonBodies.tooLarge(UPLOAD, request.getLength() + " bytes", maxRequestBytes, ""));
            return;
        }
        request.setEntityStream(new Bounded(request.getEntityStream(), maxRequestBytes));
    }

    /** Fails the read that passes the limit with a 413 (a WebApplicationException, so readers pass it through). */
    private static final class Bounded extends FilterInputStream {
        private final long limit;
        private long read;

        Bounded(InputStream in, long limit) {
            super(in);
            this.limit = limit;
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
                throw new WebApplicationException(JsonBodies.tooLarge(UPLOAD, "more than " + limit + " bytes", limit, ""));
            }
        }
    }
}
