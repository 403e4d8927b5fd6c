package io.corpora.server.api;

import io.corpora.server.rest.Problem;
import io.corpora.server.rest.ProblemException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A JSON request body checked before any reader parses it: at most a route's byte limit (413; a declared
 * Content-Length over it is refused without reading), UTF-8 (RFC 8259; the reader would otherwise replace bad bytes),
 * and nested at most {@value #MAX_DEPTH} objects and arrays deep (400): the JSON readers descend recursively, and a
 * few hundred levels overflow a request thread's stack, which would answer 500 before any of our code ran.
 */
final class JsonBodies {

    /** Far above any document or retrieve request (a filter of 8 levels nests about 20), far below a stack overflow. */
    static final int MAX_DEPTH = 64;

    private JsonBodies() {}

    /**
     * Reads the body (bounded) and puts it back for the reader, or aborts the request with the problem.
     *
     * @param what names the body in messages, e.g. "a retrieve request"
     * @param hint appended to the 413's detail (may be empty)
     */
    static void check(ContainerRequestContext request, long limit, String what, String hint) {
        if (!BoundedBody.limit(request, limit, what, hint)) {
            return;
        }
        byte[] body;
        try {
            body = request.getEntityStream().readAllBytes();
        } catch (WebApplicationException tooLarge) {
            request.abortWith(tooLarge.getResponse());
            return;
        } catch (IOException e) {
            throw new WebApplicationException(Problem.response(400, "invalid-request", "Invalid request", "the request body could not be read"));
        }
        try {
            requireParsable(body, "the JSON body");
        } catch (ProblemException refused) {
            request.abortWith(refused.toResponse());
            return;
        }
        request.setEntityStream(new ByteArrayInputStream(body));
    }

    /**
     * Refuses JSON a reader must not be given (400): bytes that are not UTF-8, or objects and arrays nested deeper
     * than {@value #MAX_DEPTH}. For JSON that arrives other than as a request body, e.g. a multipart form's field.
     *
     * @param what names the JSON in the problem's detail, e.g. "the JSON body"
     */
    static void requireParsable(byte[] json, String what) {
        int invalidAt = firstInvalidUtf8(json);
        if (invalidAt >= 0) {
            throw new ProblemException(400, "invalid-utf8", "Invalid request", what + " is not valid UTF-8 (first bad byte at offset " + invalidAt + ")");
        }
        int tooDeepAt = firstTooDeep(json, MAX_DEPTH);
        if (tooDeepAt >= 0) {
            throw new ProblemException(400, "json-too-deep", "Invalid request", what + " nests objects and arrays more than " + MAX_DEPTH
                    + " deep (at offset " + tooDeepAt + ")");
        }
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

    /** The offset of the bracket that opens the {@code (maxDepth + 1)}-th nested object or array, or -1 (strings skipped). */
    static int firstTooDeep(byte[] json, int maxDepth) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < json.length; i++) {
            byte b = json[i];
            if (inString) {
                if (b == '\\') {
                    i++;
                } else if (b == '"') {
                    inString = false;
                }
            } else if (b == '"') {
                inString = true;
            } else if (b == '{' || b == '[') {
                if (++depth > maxDepth) {
                    return i;
                }
            } else if (b == '}' || b == ']') {
                depth--;
            }
        }
        return -1;
    }
}
