package io.corpora.ingest;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.IDN;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * One HTTP/1.1 {@code GET} over TLS to an address the caller already resolved and checked: the TCP connection goes to
 * exactly that address (nothing here resolves the host again, so a DNS answer that changes cannot redirect it), while
 * SNI and the certificate's host name check use the URL's host, as any HTTPS client would. No redirect is followed, no
 * connection is reused, at most {@code maxBytes} of body are read, and the whole exchange — connect, handshake, request,
 * every byte of the answer — must finish by the deadline.
 *
 * <p>The JDK's {@code HttpClient} cannot be told which address to connect to, hence this small client: identity
 * encoding only, a {@code Content-Length}, chunked or read-to-close body, bounded header and line sizes.
 */
final class PinnedHttpsGet {

    static final int MAX_HEADER_BYTES = 64 * 1024;
    static final int MAX_LINE = 8 * 1024;

    /** The answer: status, headers (names lower-cased, first value kept) and, for a 2xx, the body. */
    record Response(int status, Map<String, String> headers, byte[] body) {
        Optional<String> header(String name) {
            return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
        }
    }

    /** The body is over the byte limit; {@code declared} is its Content-Length, or -1 when it ran over while read. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        final long declared;

        TooLarge(long declared) {
            super("response body over the byte limit");
            this.declared = declared;
        }
    }

    private final SSLContext tls;
    private final long maxBytes;

    PinnedHttpsGet(SSLContext tls, long maxBytes) {
        this.tls = tls;
        this.maxBytes = maxBytes;
    }

    /**
     * GETs {@code uri} from {@code address}; throws {@link SocketTimeoutException} past the deadline ({@link System#nanoTime}
     * based), {@link javax.net.ssl.SSLException} for TLS failures (untrusted, wrong host name), {@link TooLarge}.
     */
    Response get(URI uri, InetAddress address, long deadlineNanos) throws IOException {
        String host = bare(uri.getHost());
        int port = uri.getPort() < 0 ? 443 : uri.getPort();
        Socket raw = new Socket();
        try {
            raw.connect(new InetSocketAddress(address, port), remainingMillis(deadlineNanos));
            SSLSocket socket = (SSLSocket) tls.getSocketFactory().createSocket(raw, host, port, true);
            try (socket) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS"); // the certificate must name the URL's host
                serverName(host).ifPresent(name -> parameters.setServerNames(List.of(name)));
                socket.setSSLParameters(parameters);
                socket.setSoTimeout(remainingMillis(deadlineNanos));
                socket.startHandshake();
                OutputStream out = socket.getOutputStream();
                out.write(request(uri, host, port).getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                return read(new DeadlineReader(socket, new BufferedInputStream(socket.getInputStream()), deadlineNanos));
            }
        } finally {
            raw.close();
        }
    }

    private static String request(URI uri, String host, int port) {
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        String target = uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
        String authority = (host.contains(":") ? "[" + host + "]" : IDN.toASCII(host)) + (port == 443 ? "" : ":" + port);
        return "GET " + target + " HTTP/1.1\r\nHost: " + authority + "\r\nAccept: */*\r\nAccept-Encoding: identity\r\n"
                + "User-Agent: corpora-url-ingest\r\nConnection: close\r\n\r\n";
    }

    private Response read(DeadlineReader in) throws IOException {
        while (true) {
            String statusLine = in.line();
            String[] parts = statusLine.split(" ", 3);
            if (parts.length < 2 || !parts[0].startsWith("HTTP/1.") || !parts[1].matches("\\d{3}")) {
                throw new IOException("not an HTTP/1.x status line: " + abbreviate(statusLine));
            }
            int status = Integer.parseInt(parts[1]);
            Map<String, String> headers = headers(in);
            if (status >= 100 && status < 200) {
                continue; // an interim answer (100 Continue, 103 Early Hints); the final one follows
            }
            if (status < 200 || status >= 300) {
                return new Response(status, headers, new byte[0]);
            }
            return new Response(status, headers, body(in, headers));
        }
    }

    private static Map<String, String> headers(DeadlineReader in) throws IOException {
        Map<String, String> headers = new LinkedHashMap<>();
        int total = 0;
        for (String line = in.line(); !line.isEmpty(); line = in.line()) {
            total += line.length() + 2;
            if (total > MAX_HEADER_BYTES) {
                throw new IOException("response headers over " + MAX_HEADER_BYTES + " bytes");
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IOException("malformed response header: " + abbreviate(line));
            }
            headers.putIfAbsent(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
        }
        return headers;
    }

    private byte[] body(DeadlineReader in, Map<String, String> headers) throws IOException {
        String transferEncoding = headers.get("transfer-encoding");
        if (transferEncoding != null) {
            if (!transferEncoding.toLowerCase(Locale.ROOT).equals("chunked")) {
                throw new IOException("unsupported transfer encoding '" + abbreviate(transferEncoding) + "'");
            }
            return chunked(in);
        }
        String contentLength = headers.get("content-length");
        if (contentLength == null) {
            return untilClosed(in);
        }
        long declared;
        try {
            declared = Long.parseLong(contentLength.strip());
        } catch (NumberFormatException e) {
            throw new IOException("malformed Content-Length '" + abbreviate(contentLength) + "'");
        }
        if (declared < 0) {
            throw new IOException("negative Content-Length " + declared);
        }
        if (declared > maxBytes) {
            throw new TooLarge(declared);
        }
        byte[] body = new byte[(int) declared];
        in.readFully(body);
        return body;
    }

    private byte[] chunked(DeadlineReader in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = in.line();
            int extension = sizeLine.indexOf(';');
            String hex = (extension < 0 ? sizeLine : sizeLine.substring(0, extension)).strip();
            long size;
            try {
                size = Long.parseLong(hex, 16);
            } catch (NumberFormatException e) {
                throw new IOException("malformed chunk size '" + abbreviate(sizeLine) + "'");
            }
            if (size < 0 || out.size() + size > maxBytes) {
                throw new TooLarge(-1);
            }
            if (size == 0) {
                headers(in); // trailers, ignored
                return out.toByteArray();
            }
            byte[] chunk = new byte[(int) size];
            in.readFully(chunk);
            out.writeBytes(chunk);
            if (!in.line().isEmpty()) {
                throw new IOException("a chunk is not followed by CRLF");
            }
        }
    }

    private byte[] untilClosed(DeadlineReader in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
            if (out.size() + (long) n > maxBytes) {
                throw new TooLarge(-1);
            }
            out.write(buffer, 0, n);
        }
        return out.toByteArray();
    }

    static String bare(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }

    /** SNI names a DNS host only: not an IP literal, nor a name SNI cannot carry (the certificate check still applies). */
    private static Optional<SNIHostName> serverName(String host) {
        if (host.contains(":") || host.matches("[0-9.]+")) {
            return Optional.empty();
        }
        try {
            return Optional.of(new SNIHostName(IDN.toASCII(host)));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "…";
    }

    static int remainingMillis(long deadlineNanos) throws SocketTimeoutException {
        long millis = (deadlineNanos - System.nanoTime()) / 1_000_000;
        if (millis <= 0) {
            throw new SocketTimeoutException("the deadline passed");
        }
        return (int) Math.min(Integer.MAX_VALUE, millis);
    }

    /** Reads from the socket, each read waiting at most until the deadline, so a trickling server cannot outlast it. */
    private static final class DeadlineReader {
        private final Socket socket;
        private final InputStream in;
        private final long deadlineNanos;

        DeadlineReader(Socket socket, InputStream in, long deadlineNanos) {
            this.socket = socket;
            this.in = in;
            this.deadlineNanos = deadlineNanos;
        }

        int read(byte[] buffer) throws IOException {
            socket.setSoTimeout(remainingMillis(deadlineNanos));
            return in.read(buffer);
        }

        void readFully(byte[] target) throws IOException {
            int done = 0;
            while (done < target.length) {
                socket.setSoTimeout(remainingMillis(deadlineNanos));
                int n = in.read(target, done, target.length - done);
                if (n < 0) {
                    throw new IOException("the connection closed " + (target.length - done) + " bytes before the body's end");
                }
                done += n;
            }
        }

        /** A line without its CRLF (a bare LF is accepted), at most {@link #MAX_LINE} bytes. */
        String line() throws IOException {
            StringBuilder line = new StringBuilder();
            while (true) {
                socket.setSoTimeout(remainingMillis(deadlineNanos));
                int b = in.read();
                if (b < 0) {
                    throw new IOException("the connection closed in the middle of the response head");
                }
                if (b == '\n') {
                    int end = line.length();
                    return end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
                }
                if (line.length() >= MAX_LINE) {
                    throw new IOException("a response line is over " + MAX_LINE + " bytes");
                }
                line.append((char) b);
            }
        }
    }
}
