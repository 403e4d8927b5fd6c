package io.corpora.server.console;

import jakarta.servlet.annotation.WebServlet;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Serves the admin console's static files ({@code src/main/webapp/console/}) at {@code /console/}. Needed because the
 * JAX-RS application is mapped to {@code /*}, which would otherwise answer every {@code /console/…} request with 404;
 * a servlet's longer path prefix wins. The console is public static content: every API call it makes carries the
 * user's token and is authorised by the REST layer. The Content-Security-Policy keeps it same-origin only.
 */
@WebServlet(name = "console", urlPatterns = "/console/*")
public class ConsoleServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;
    private static final Pattern SAFE_PATH = Pattern.compile("(/[A-Za-z0-9_-][A-Za-z0-9._-]*)+");
    private static final Map<String, String> TYPES = Map.of(
            "html", "text/html; charset=utf-8",
            "js", "text/javascript; charset=utf-8",
            "css", "text/css; charset=utf-8",
            "svg", "image/svg+xml",
            "png", "image/png",
            "ico", "image/x-icon");
    private static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String path = request.getPathInfo();
        if (path == null) {
            response.sendRedirect(request.getContextPath() + "/console/");
            return;
        }
        if (path.equals("/")) {
            path = "/index.html";
        }
        String extension = path.substring(path.lastIndexOf('.') + 1);
        String type = TYPES.get(extension);
        if (!SAFE_PATH.matcher(path).matches() || type == null) {
            notFound(response, path);
            return;
        }
        try (InputStream in = getServletContext().getResourceAsStream("/console" + path)) {
            if (in == null) {
                notFound(response, path);
                return;
            }
            response.setContentType(type);
            response.setHeader("Content-Security-Policy", CSP);
            response.setHeader("X-Content-Type-Options", "nosniff");
            response.setHeader("Referrer-Policy", "no-referrer");
            response.setHeader("Cache-Control", "no-cache");
            in.transferTo(response.getOutputStream());
        }
    }

    private static void notFound(HttpServletResponse response, String path) throws IOException {
        response.setStatus(404);
        response.setContentType("application/problem+json");
        String shown = path.length() > 100 ? path.substring(0, 100) : path;
        String body = "{\"type\":\"https://corpora.dev/problems/not-found\",\"title\":\"Not found\",\"status\":404,\"detail\":"
                + jsonString("no console file " + shown) + "}";
        response.getOutputStream().write(body.getBytes(StandardCharsets.UTF_8));
    }

    private static String jsonString(String value) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
