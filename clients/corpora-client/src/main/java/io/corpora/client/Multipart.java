package io.corpora.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
        String type = Files.probeContentType(file);
        part("Content-Disposition: form-data; name=\"" + quoted(name) + "\"; filename=\"" + quoted(file.getFileName().toString())
                + "\"\r\nContent-Type: " + (type == null ? "application/octet-stream" : type), Files.readAllBytes(file));
    }

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
