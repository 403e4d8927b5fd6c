package io.corpora.server.rest;

import io.corpora.ingest.IngestException;
import io.corpora.retrieval.RetrievalService;
import io.corpora.runtime.PluginCreationException;
import io.corpora.runtime.TenantRuntimes;
import io.corpora.runtime.guard.PluginUnavailableException;
import io.corpora.security.InvalidClaimException;
import io.corpora.server.security.ForbiddenException;
import io.corpora.spi.PluginException;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.tenancy.AccessFilters;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/** Data-plane exceptions as problem+json. */
public final class DataPlaneExceptionMappers {

    private static final Logger LOG = Logger.getLogger(DataPlaneExceptionMappers.class.getName());

    private DataPlaneExceptionMappers() {}

    @Provider
    public static class Problems implements ExceptionMapper<ProblemException> {
        @Override
        public Response toResponse(ProblemException e) {
            return e.toResponse();
        }
    }

    @Provider
    public static class Forbidden implements ExceptionMapper<ForbiddenException> {
        @Override
        public Response toResponse(ForbiddenException e) {
            return Problem.response(403, "forbidden", "Forbidden", e.getMessage());
        }
    }

    /**
     * A verified token whose Corpora claims have the wrong shape: 401 with an RFC 6750 {@code invalid_token} challenge,
     * because the server cannot tell what such a token may do (403 stays for a well-formed token lacking a permission).
     */
    @Provider
    public static class InvalidClaims implements ExceptionMapper<InvalidClaimException> {
        @Override
        public Response toResponse(InvalidClaimException e) {
            Map<String, Object> extensions = e.claim() == null ? Map.of() : Map.of("claim", e.claim());
            Response problem = Problem.response(401, "invalid-token-claims", "Invalid token claims", e.getMessage(), extensions);
            // RFC 6750 allows no quotes in error_description; the problem body has the detail.
            String description = e.claim() == null ? "malformed token payload" : "malformed '" + e.claim() + "' claim";
            return Response.fromResponse(problem)
                    .header("WWW-Authenticate", "Bearer error=\"invalid_token\", error_description=\"" + description + "\"").build();
        }
    }

    /** A failing retrieval filter hook: the request is refused, nothing was searched. */
    @Provider
    public static class AccessDenied implements ExceptionMapper<AccessFilters.AccessDeniedException> {
        @Override
        public Response toResponse(AccessFilters.AccessDeniedException e) {
            LOG.log(Level.WARNING, "retrieval filter hook failed; request refused", e.getCause());
            return Problem.response(403, "access-filter-failed", "Access filter unavailable", e.getMessage());
        }
    }

    @Provider
    public static class Ingest implements ExceptionMapper<IngestException> {
        @Override
        public Response toResponse(IngestException e) {
            return problem(e, Map.of()).toResponse();
        }

        /**
         * The problem an ingest refusal answers with: its status and type, and a {@code Retry-After} when it passes with
         * time (a migration, an unavailable plugin); a 5xx is logged. For routes that add extensions such as the document id.
         */
        public static ProblemException problem(IngestException e, Map<String, ?> extensions) {
            if (e.status() >= 500) {
                LOG.log(Level.SEVERE, e.getMessage(), e.getCause());
            }
            ProblemException problem = new ProblemException(e.status(), e.type(), title(e.status()), e.getMessage(), extensions);
            if (e.retryAfterSeconds() > 0) {
                return problem.retryAfter(e.retryAfterSeconds());
            }
            if (e.getCause() instanceof PluginUnavailableException unavailable) {
                return problem.retryAfter(unavailable.retryAfterSeconds());
            }
            return problem;
        }

        private static String title(int status) {
            return switch (status) {
                case 400 -> "Invalid request";
                case 403 -> "Forbidden";
                case 413 -> "Payload too large";
                case 415 -> "Unsupported media type";
                case 422 -> "Unprocessable document";
                case 429 -> "Quota exceeded";
                case 409 -> "Conflict";
                case 503 -> "Service unavailable";
                case 504 -> "Upstream timeout";
                default -> status >= 500 ? "Ingest failed" : "Invalid document";
            };
        }
    }

    /**
     * A store or embedder (or any guarded plugin whose caller does not degrade) timed out, kept failing, has an open
     * breaker or a full bulkhead: 503, with Retry-After telling when the breaker lets calls through again; 502 when the
     * plugin said its failure is permanent ({@link PluginFailureProblem}).
     */
    @Provider
    public static class PluginUnavailable implements ExceptionMapper<PluginUnavailableException> {
        @Override
        public Response toResponse(PluginUnavailableException e) {
            LOG.log(Level.WARNING, e.getMessage(), e.getCause());
            return PluginFailureProblem.of(e).toResponse(e.getMessage(),
                    Map.of("plugin", e.kind().label(), "reason", e.reason().name().toLowerCase(java.util.Locale.ROOT)));
        }
    }

    /**
     * A plugin's own {@link PluginException} that reached the REST layer: a caller error the guard passed through (4xx,
     * its message shown), or a failure of an unguarded call such as a plugin's {@code create} (5xx, logged).
     */
    @Provider
    public static class PluginFailure implements ExceptionMapper<PluginException> {
        @Override
        public Response toResponse(PluginException e) {
            PluginFailureProblem problem = PluginFailureProblem.of(e);
            if (problem.status() >= 500) {
                LOG.log(Level.WARNING, "plugin failure (" + e.failureKind() + ")", e);
            }
            return problem.toResponse(e.getMessage(), Map.of("failureKind", e.failureKind().name().toLowerCase(java.util.Locale.ROOT)));
        }
    }

    /** The tenant has no generator: 501, saying how to configure one (retrieve is unaffected). */
    @Provider
    public static class NoGenerator implements ExceptionMapper<io.corpora.answer.NoGeneratorException> {
        @Override
        public Response toResponse(io.corpora.answer.NoGeneratorException e) {
            return Problem.response(501, "generator-not-configured", "No generator configured", e.getMessage());
        }
    }

    @Provider
    public static class EmbedderMismatch implements ExceptionMapper<RetrievalService.EmbedderMismatchException> {
        @Override
        public Response toResponse(RetrievalService.EmbedderMismatchException e) {
            return Problem.response(409, "embedder-mismatch", "Embedder fingerprint mismatch", e.getMessage());
        }
    }

    /**
     * A tenant whose plugin this server cannot create (a provider not loaded, refused options, a backend that will not
     * open): 503, because neither the caller's request nor a retry by the caller can fix it; the operator can, with the
     * incident's log line, which holds the plugin's own words (hosts, paths, tables) that the caller is not shown.
     */
    @Provider
    public static class PluginCreation implements ExceptionMapper<PluginCreationException> {
        @Override
        public Response toResponse(PluginCreationException e) {
            String incident = Incidents.record(LOG, e.getMessage(), e.getCause());
            Response problem = Problem.response(503, "plugin-unavailable", "Service unavailable", "tenant '" + e.tenantId() + "' cannot be served: its "
                    + e.kind().label() + " plugin '" + e.provider() + "' could not be started on this server; quote incident " + incident
                    + " to the operator.", Map.of("incident", incident));
            // No new attempt is made before the pause has passed (TenantRuntimes).
            return Response.fromResponse(problem).header("Retry-After", TenantRuntimes.CREATION_RETRY_PAUSE.toSeconds()).build();
        }
    }

    @Provider
    public static class InvalidConfig implements ExceptionMapper<InvalidConfigException> {
        @Override
        public Response toResponse(InvalidConfigException e) {
            return Problem.response(400, "invalid-plugin-config", "Invalid plugin configuration", e.getMessage(),
                    Map.of("problems", e.problems()));
        }
    }
}
