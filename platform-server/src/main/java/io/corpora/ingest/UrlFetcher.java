package io.corpora.ingest;

import io.corpora.control.IngestPolicy;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Fetches a document for a {@code {url}} ingest, refusing everything a tenant did not explicitly allow: only
 * {@code https}, no user info, the URL's origin exactly one of the tenant's origins, no host resolving to a loopback,
 * link-local or private address unless its origin is one of the tenant's private origins, no redirect followed (a 3xx
 * is an error naming its Location), at most {@code maxBytes} read and the whole exchange within {@code timeout}.
 *
 * <p>The address check resolves the host before the HTTP client connects, which resolves it again; a DNS server that
 * answers differently within that window is not defended against here (JDK 17 has no pluggable resolver).
 */
public final class UrlFetcher {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;

    private final Duration timeout;
    private final long maxBytes;
    private final HttpClient http;

    /** A fetched document. @param mediaType lower-case, no parameters; {@code application/octet-stream} when undeclared */
    public record Fetched(URI url, byte[] content, String mediaType, String charset, String fileName) {}

    /** @param ssl the trust material for the servers fetched from (the JDK's default trust store in production) */
    public UrlFetcher(Duration timeout, long maxBytes, SSLContext ssl) {
        if (timeout.isNegative() || timeout.isZero() || maxBytes < 1) {
            throw new IllegalArgumentException("URL fetch timeout and byte limit must be positive");
        }
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NEVER)
                .sslContext(Objects.requireNonNull(ssl, "ssl")).build();
    }

    /** TLS trusting exactly the certificates of a PKCS12 trust store (an internal CA; a test server's certificate). */
    public static SSLContext trusting(Path trustStore, String password) {
        try (InputStream in = Files.newInputStream(trustStore)) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, password == null ? null : password.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the URL-ingest trust store " + trustStore + ": " + e.getMessage(), e);
        }
    }

    public Fetched fetch(String url, IngestPolicy policy) {
        URI uri = checkedUrl(url);
        Origin origin = Origin.of(uri);
        boolean privateAllowed = policy.privateOrigins().stream().anyMatch(o -> sameOrigin(o, origin));
        if (!privateAllowed && policy.allowedOrigins().stream().noneMatch(o -> sameOrigin(o, origin))) {
            throw new IngestException(403, "origin-not-allowed", "origin " + origin + " of " + uri + " is not one of the tenant's allowed origins "
                    + policy.allowedOrigins() + (policy.privateOrigins().isEmpty() ? "" : " or private origins " + policy.privateOrigins()));
        }
        if (!privateAllowed) {
            refusePrivateAddresses(uri.getHost(), origin);
        }
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "*/*").GET().build();
        CompletableFuture<HttpResponse<byte[]>> exchange = http.sendAsync(request, this::limitedBody);
        HttpResponse<byte[]> response;
        try {
            response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            exchange.cancel(true);
            throw timedOut(uri);
        } catch (InterruptedException e) {
            exchange.cancel(true);
            Thread.currentThread().interrupt();
            throw new IngestException(503, "url-fetch-interrupted", "fetching " + uri + " was interrupted");
        } catch (ExecutionException e) {
            throw failure(uri, e.getCause());
        }
        int status = response.statusCode();
        if (status >= 300 && status < 400) {
            throw new IngestException(422, "url-redirected", uri + " answered " + status + " redirecting to "
                    + response.headers().firstValue("Location").orElse("(no Location header)")
                    + "; redirects are not followed — ingest the final URL if its origin is allowed");
        }
        if (status < 200 || status >= 300) {
            throw new IngestException(422, "url-fetch-failed", uri + " answered HTTP " + status);
        }
        String contentType = response.headers().firstValue("Content-Type").orElse(null);
        return new Fetched(uri, response.body(), mediaTypeOf(contentType), charsetOf(contentType), fileNameOf(uri));
    }

    private static URI checkedUrl(String url) {
        String text = Objects.requireNonNull(url, "url").strip();
        int fragment = text.indexOf('#');
        URI uri;
        try {
            uri = new URI(fragment < 0 ? text : text.substring(0, fragment));
        } catch (URISyntaxException e) {
            throw new IngestException(400, "invalid-url", "'" + url + "' is not a URL: " + e.getReason());
        }
        if (!"https".equalsIgnoreCase(uri.getScheme())) {
            throw new IngestException(400, "invalid-url", "only https:// URLs are fetched, got scheme '" + uri.getScheme() + "'");
        }
        if (uri.getRawUserInfo() != null) {
            throw new IngestException(400, "invalid-url", "a URL to fetch may not carry user info (credentials); host " + uri.getHost());
        }
        if (uri.getHost() == null) {
            throw new IngestException(400, "invalid-url", "'" + url + "' has no host");
        }
        return uri;
    }

    private static boolean sameOrigin(String declared, Origin origin) {
        try {
            return Origin.parse(declared).equals(origin);
        } catch (IllegalArgumentException e) {
            return false; // the validator refuses such entries; an old stored one admits nothing
        }
    }

    private static void refusePrivateAddresses(String host, Origin origin) {
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(host.startsWith("[") ? host.substring(1, host.length() - 1) : host);
        } catch (UnknownHostException e) {
            throw new IngestException(422, "url-fetch-failed", "host " + host + " does not resolve");
        }
        for (InetAddress address : addresses) {
            if (isInternal(address)) {
                throw new IngestException(403, "origin-not-allowed", "host " + host + " resolves to " + address.getHostAddress()
                        + ", a loopback, link-local or private address; only origins listed in the tenant's ingest.privateOrigins may"
                        + " (" + origin + " is not)");
            }
        }
    }

    /** Loopback, link-local (cloud metadata), private (RFC 1918, fc00::/7), carrier-grade NAT, wildcard and multicast. */
    static boolean isInternal(InetAddress address) {
        if (address.isLoopbackAddress() || address.isLinkLocalAddress() || address.isSiteLocalAddress()
                || address.isAnyLocalAddress() || address.isMulticastAddress()) {
            return true;
        }
        byte[] bytes = address.getAddress();
        if (address instanceof Inet6Address) {
            return (bytes[0] & 0xfe) == 0xfc;
        }
        return (bytes[0] & 0xff) == 100 && (bytes[1] & 0xc0) == 64;
    }

    /** Reads at most {@code maxBytes}: refused up front when Content-Length says more, cut off when the body runs over. */
    private HttpResponse.BodySubscriber<byte[]> limitedBody(HttpResponse.ResponseInfo info) {
        if (info.statusCode() < 200 || info.statusCode() >= 300) {
            return HttpResponse.BodySubscribers.replacing(new byte[0]);
        }
        long declared = info.headers().firstValueAsLong("Content-Length").orElse(-1);
        if (declared > maxBytes) {
            return new LimitedBody(maxBytes, declared);
        }
        return new LimitedBody(maxBytes, -1);
    }

    private IngestException failure(URI uri, Throwable cause) {
        if (cause instanceof TooLarge tooLarge) {
            return new IngestException(413, "document-too-large", uri + " is " + (tooLarge.declared >= 0 ? tooLarge.declared + " bytes" : "larger than that")
                    + "; the URL ingest limit is " + maxBytes + " bytes");
        }
        if (cause instanceof HttpTimeoutException) {
            return timedOut(uri);
        }
        if (cause instanceof SSLException) {
            return new IngestException(422, "url-fetch-failed", "TLS with " + uri.getHost() + " failed: " + cause.getMessage());
        }
        if (cause instanceof IOException) {
            return new IngestException(422, "url-fetch-failed", "fetching " + uri + " failed: " + cause.getClass().getSimpleName()
                    + (cause.getMessage() == null ? "" : " " + cause.getMessage()));
        }
        return new IngestException(500, "url-fetch-failed", "fetching " + uri + " failed", cause);
    }

    private IngestException timedOut(URI uri) {
        return new IngestException(504, "url-timeout", uri + " did not answer in full within " + timeout.toMillis() + " ms");
    }

    private static String mediaTypeOf(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return "application/octet-stream";
        }
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon)).strip().toLowerCase(Locale.ROOT);
    }

    private static String charsetOf(String contentType) {
        if (contentType == null) {
            return null;
        }
        return Arrays.stream(contentType.split(";")).skip(1).map(String::strip)
                .filter(p -> p.toLowerCase(Locale.ROOT).startsWith("charset="))
                .map(p -> p.substring("charset=".length()).replace("\"", "").strip()).findFirst().orElse(null);
    }

    private static String fileNameOf(URI uri) {
        String path = uri.getPath() == null ? "" : uri.getPath();
        String last = path.substring(path.lastIndexOf('/') + 1);
        return last.isBlank() ? uri.getHost() : last;
    }

    private static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;
        final long declared;

        TooLarge(long declared) {
            super("response body over the byte limit");
            this.declared = declared;
        }
    }

    /** Collects the body and cancels the exchange as soon as it passes the limit. */
    private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
        private final long limit;
        private final long declaredTooLarge;
        private final CompletableFuture<byte[]> body = new CompletableFuture<>();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private Flow.Subscription subscription;

        LimitedBody(long limit, long declaredTooLarge) {
            this.limit = limit;
            this.declaredTooLarge = declaredTooLarge;
        }

        @Override
        public CompletionStage<byte[]> getBody() {
            return body;
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription = subscription;
            if (declaredTooLarge >= 0) {
                subscription.cancel();
                body.completeExceptionally(new TooLarge(declaredTooLarge));
                return;
            }
            subscription.request(1);
        }

        @Override
        public void onNext(List<ByteBuffer> buffers) {
            for (ByteBuffer buffer : buffers) {
                if (out.size() + (long) buffer.remaining() > limit) {
                    subscription.cancel();
                    body.completeExceptionally(new TooLarge(-1));
                    return;
                }
                byte[] chunk = new byte[buffer.remaining()];
                buffer.get(chunk);
                out.writeBytes(chunk);
            }
            subscription.request(1);
        }

        @Override
        public void onError(Throwable error) {
            body.completeExceptionally(error);
        }

        @Override
        public void onComplete() {
            body.complete(out.toByteArray());
        }
    }
}
