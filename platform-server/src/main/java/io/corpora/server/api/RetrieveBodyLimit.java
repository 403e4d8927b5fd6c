package io.corpora.server.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Bounds a retrieve request's body before the JSON reader sees it ({@link JsonBodies}: 413 over the limit, UTF-8, not
 * too deeply nested): {@code corpora.retrieve.maxJsonBytes} (default 128 KiB: a 4,096-character query and a filter of
 * 1,024 values fit) for {@code retrieve}, {@code corpora.retrieve.maxBatchJsonBytes} (default 1 MiB) for
 * {@code retrieve:batch}.
 */
@Provider
@RetrieveBody
public class RetrieveBodyLimit implements ContainerRequestFilter {

    private final long maxJsonBytes = setting("corpora.retrieve.maxJsonBytes", 128L * 1024);
    private final long maxBatchJsonBytes = setting("corpora.retrieve.maxBatchJsonBytes", 1024L * 1024);

    private static long setting(String key, long defaultValue) {
        return ConfigProvider.getConfig().getOptionalValue(key, Long.class).orElse(defaultValue);
    }

    @Override
    public void filter(ContainerRequestContext request) {
        boolean batch = request.getUriInfo().getPath().endsWith(":batch");
        JsonBodies.check(request, batch ? maxBatchJsonBytes : maxJsonBytes, batch ? "a retrieve:batch request" : "a retrieve request", "");
    }
}
