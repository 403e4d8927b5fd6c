package io.corpora.server.api;

import io.corpora.server.ServerClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 POST over a plain socket that reads the answer while it is still sending the body, as curl and browsers
 * do: a server refusing a huge upload answers early, and this client stops sending then. (java.net.http reads the
 * answer only after the whole body is sent, so it would wait on a server that, rightly, stopped reading.)
 */
final class EarlyAnswerUpload {

    /** The answer, and how many body bytes were written to the socket before it came. */
    record Answer(ServerClient.Response response, long bodyBytesSent) {}

    private EarlyAnswerUpload() {}

    /** @param contentLength the declared length, or -1 to send the body chunked */
    static Answer post(URI uri, Map<String, String> headers, InputStream body, long contentLength) throws IOException, InterruptedException {
        AtomicLong sent = new AtomicLong();
        try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
            socket.setSoTimeout(120_000);
            OutputStream out = socket.getOutputStream();
            StringBuilder head = new StringBuilder("POST ").append(uri.getRawPath()).append(" HTTP/1.1\r\nHost: ")
                    .append(uri.getHost()).append(':').append(uri.getPort()).append("\r\nConnection: close\r\n");
            headers.forEach((name, value) -> head.append(name).append(": ").append(value).append("\r\n"));
            head.append(contentLength >= 0 ? "Content-Length: " + contentLength : "Transfer-Encoding: chunked").append("\r\n\r\n");
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            Thread writer = new Thread(() -> {
                byte[] buffer = new byte[64 * 1024];
                try {
                    for (int n; (n = body.read(buffer)) > 0; ) {
                        if (contentLength < 0) {
                            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        }
                        out.write(buffer, 0, n);
                        if (contentLength < 0) {
                            out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                        }
                        sent.addAndGet(n);
                    }
                    if (contentLength < 0) {
                        out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    }
                    out.flush();
                } catch (IOException answeredAndClosed) {
                    // the server answered and closed, or this side closed after the answer: stop sending
                }
            }, "early-answer-upload");
            writer.setDaemon(true);
            writer.start();
            ServerClient.Response response = read(socket.getInputStream());
            socket.close();
            writer.join(30_000);
            return new Answer(response, sent.get());
        }
    }

    private static ServerClient.Response read(InputStream in) throws IOException {
        String statusLine = line(in);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        if (status == 100) {
            line(in); // the blank line after "100 Continue"
            return read(in);
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header; !(header = line(in)).isEmpty(); ) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).trim().toLowerCase(Locale.ROOT), header.substring(colon + 1).trim());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (headers.containsKey("content-length")) {
            body.writeBytes(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int size; (size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) > 0; ) {
                body.writeBytes(in.readNBytes(size));
                line(in);
            }
        } else {
            body.writeBytes(in.readAllBytes());
        }
        return new ServerClient.Response(status, headers.getOrDefault("content-type", ""), body.toString(StandardCharsets.UTF_8));
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b; (b = in.read()) != '\n'; ) {
            if (b < 0) {
                throw new IOException("connection closed before the answer was complete");
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.ISO_8859_1);
    }
}
