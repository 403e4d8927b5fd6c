package io.corpora.server.api;

import io.corpora.server.rest.Problem;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The one bound on a request body, for JSON and multipart alike: a declared Content-Length over the limit is answered
 * 413 at once (nothing of the body is read), and a body without one (chunked) fails with 413 on the read that passes
 * the limit (a {@link WebApplicationException}, so readers pass it through).
 */
final class BoundedBody {

    private BoundedBody() {}

    /**
     * Bounds the request's entity stream; false when the request was aborted already (its declared length is over).
     *
     * @param what names the body in messages, e.g. "a retrieve request"
     * @param hint appended to the 413's detail (may be empty)
     */
    static boolean limit(ContainerRequestContext request, long limit, String what, String hint) {
        if (request.getLength() > limit) {
            request.abortWith(tooLarge(what, request.getLength() + " bytes", limit, hint));
            return false;
        }
        request.setEntityStream(new Bounded(request.getEntityStream(), limit, what, hint));
        return true;
    }

    static Response tooLarge(String what, String size, long limit, String hint) {
        return Problem.response(413, "request-too-large", "Payload too large", what + " of " + size + " is over the "
                + limit + "-byte limit" + hint);
    }

    private static final class Bounded extends FilterInputStream {
        private final long limit;
        private final String what;
        private final String hint;
        private long read;

        Bounded(InputStream in, long limit, String what, String hint) {
            super(in);
            this.limit = limit;
            this.what = what;
            this.hint = hint;
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
                throw new WebApplicationException(tooLarge(what, "more than " + limit + " bytes", limit, hint));
            }
        }
    }
}
