package io.corpora.server.api;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Bounds an evaluation's body before the JSON reader sees it ({@link JsonBodies}: 413 over the limit):
 * {@code corpora.evaluation.maxJsonBytes}, default 16 MiB (2,000 long queries with their qrels fit).
 */
@Provider
@EvaluationBody
public class EvaluationBodyLimit implements ContainerRequestFilter {

    private final long maxJsonBytes = ConfigProvider.getConfig().getOptionalValue("corpora.evaluation.maxJsonBytes", Long.class)
            .orElse(16L * 1024 * 1024);

    @Override
    public void filter(ContainerRequestContext request) {
        JsonBodies.check(request, maxJsonBytes, "an evaluation request", "");
    }
}
