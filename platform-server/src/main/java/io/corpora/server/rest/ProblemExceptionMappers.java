package io.corpora.server.rest;

import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import java.util.logging.Logger;

/** Turns every exception into problem+json; unexpected ones are logged with an id the client can quote, never a stack trace. */
public final class ProblemExceptionMappers {

    private static final Logger LOG = Logger.getLogger(ProblemExceptionMappers.class.getName());

    private ProblemExceptionMappers() {}

    /** JAX-RS errors (404 for unknown routes, 405, 415 …) keep their status. */
    @Provider
    public static class WebApplication implements ExceptionMapper<WebApplicationException> {
        @Override
        public Response toResponse(WebApplicationException e) {
            Response original = e.getResponse();
            int status = original.getStatus();
            if (original.getMediaType() != null && Problem.MEDIA_TYPE.equals(original.getMediaType().toString())) {
                return original;
            }
            Response.StatusType statusType = Response.Status.fromStatusCode(status);
            String title = statusType == null ? "HTTP " + status : statusType.getReasonPhrase();
            return Problem.response(status, "http-" + status, title, e.getMessage());
        }
    }

    /** Invalid input detected by the engine or the SPI value types. */
    @Provider
    public static class IllegalArgument implements ExceptionMapper<IllegalArgumentException> {
        @Override
        public Response toResponse(IllegalArgumentException e) {
            return Problem.response(400, "invalid-request", "Invalid request", e.getMessage());
        }
    }

    /** Anything else: 500 with a correlation id; details stay in the server log. */
    @Provider
    public static class Unexpected implements ExceptionMapper<Exception> {
        @Override
        public Response toResponse(Exception e) {
            if (e instanceof WebApplicationException wae) {
                return new WebApplication().toResponse(wae);
            }
            if (e instanceof IllegalArgumentException iae) {
                return new IllegalArgument().toResponse(iae);
            }
            String incident = Incidents.record(LOG, "", e);
            return Problem.response(500, "internal-error", "Internal server error",
                    "An unexpected error occurred; quote incident " + incident + " to the operator.",
                    java.util.Map.of("incident", incident));
        }
    }
}
