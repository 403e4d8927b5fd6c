package io.corpora.server.rest;

import jakarta.json.Json;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The problem+json answer for a request the servlet container refuses before the application sees it: Servlet 6
 * rejects "suspicious" request URIs (an encoded {@code /}, {@code \}, {@code #} or NUL, an encoded or parameterised dot segment)
 * with 400, which Liberty otherwise renders as an HTML page. WEB-INF/web.xml maps error code 400 here; the
 * application's own 400s are JAX-RS responses, which never pass through the container's error pages.
 */
@WebServlet(name = "container-refusals", urlPatterns = ContainerRefusalServlet.PATH)
public class ContainerRefusalServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** Where web.xml sends the container's 400s. */
    static final String PATH = "/errors/container-refusal";

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        boolean refusal = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) instanceof Integer;
        String body = refusal
                ? problem(400, "invalid-request-uri", "Invalid request URI", "the request path holds a sequence the server refuses: an encoded"
                        + " '/', '\\', '#' or NUL, or a '.' or '..' segment that is encoded or carries ';' parameters; send an id holding such"
                        + " characters as a query parameter instead (e.g. GET document?id=…, percent-encoded)")
                : problem(404, "not-found", "Not found", "no resource at this path");
        response.setStatus(refusal ? 400 : 404);
        response.setContentType(Problem.MEDIA_TYPE);
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String problem(int status, String type, String title, String detail) {
        return Json.createObjectBuilder().add("type", "https://corpora.dev/problems/" + type).add("title", title).add("status", status)
                .add("detail", detail).build().toString();
    }
}
