package io.corpora.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/** A multipart/form-data body (RFC 7578) built in memory: the JDK HTTP client has no multipart publisher. */
final class Multipart {

    private final String boundary = "corpora-" + UUID.randomUUID();
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();

    void field(String name, String value) {
        part("Content-Disposition: form-data; name=\"" + quoted(name) + "\"\r\nContent-Type: text/plain; charset=UTF-8",
                value.getBytes(StandardCharsets.UTF_8));
    }

    void file(String name, Path file) throws IOException {
        String type = mediaType(file);
        part("Content-Disposition: form-data; name=\"" + quoted(name) + "\"; filename=\"" + quoted(file.getFileName().toString())
                + "\"\r\nContent-Type: " + type, Files.readAllBytes(file));
    }

    /**
     * The part's Content-Type, which the server's loaders go by: the common document types by extension (the JDK's
     * probe depends on the platform's MIME tables and often knows no Markdown), else the probe, else octet-stream.
     */
    static String mediaType(Path file) throws IOException {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        String extension = name.substring(name.lastIndexOf('.') + 1);
        String known = KNOWN.get(extension);
        if (known != null) {
            return known;
        }
        String probed = Files.probeContentType(file);
        return probed == null ? "application/octet-stream" : probed;
    }

    private static final Map<String, String> KNOWN = Map.of("md", "text/markdown", "markdown", "text/markdown", "txt", "text/plain",
            "html", "text/html", "htm", "text/html", "pdf", "application/pdf", "json", "application/json", "csv", "text/csv",
            "jsonl", "application/x-ndjson");

    String contentType() {
        return "multipart/form-data; boundary=" + boundary;
    }

    byte[] body() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(body.toByteArray());
        out.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        return out.toByteArray();
    }

    private void part(String headers, byte[] content) {
        body.writeBytes(("--" + boundary + "\r\n" + headers + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(content);
        body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
    }

    private static String quoted(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\r", "").replace("\n", "");
    }
}
