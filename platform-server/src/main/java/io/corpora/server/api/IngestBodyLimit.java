package io.corpora.server.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.ext.Provider;
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
        BoundedBody.limit(request, maxRequestBytes, "an upload request", "");
    }
}
