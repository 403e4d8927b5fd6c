package io.corpora.ingest;

import io.corpora.controlplane.IngestPolicy;
import io.corpora.controlplane.Origin;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Fetches a document for a {@code {url}} ingest, refusing everything a tenant did not explicitly allow: only
 * {@code https}, no user info, the URL's origin exactly one of the tenant's origins, no host resolving to a
 * special-purpose address ({@link SpecialPurposeAddresses}: loopback, private, link-local, shared, documentation,
 * multicast, reserved …) unless its origin is one of the tenant's private origins, no redirect followed (a 3xx is an
 * error naming its Location), at most {@code maxBytes} read and the whole exchange within {@code timeout}.
 *
 * <p>The host is resolved once; the connection goes to an address of that answer, the one that was checked
 * ({@link PinnedHttpsGet}), so a DNS server answering differently a moment later (DNS rebinding) cannot point the
 * fetch at an internal address. TLS still verifies the certificate against the URL's host, and sends it as SNI.
 */
public final class UrlFetcher {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;

    /** Answers a host's addresses (the system resolver in production; tests give their own). */
    @FunctionalInterface
    public interface HostResolver {
        InetAddress[] resolve(String host) throws UnknownHostException;

        HostResolver SYSTEM = InetAddress::getAllByName;
    }

    private final Duration timeout;
    private final long maxBytes;
    private final PinnedHttpsGet http;
    private final HostResolver resolver;

    /** A fetched document. @param mediaType lower-case, no parameters; {@code application/octet-stream} when undeclared */
    public record Fetched(URI url, byte[] content, String mediaType, String charset, String fileName) {}

    /** @param ssl the trust material for the servers fetched from (the JDK's default trust store in production) */
    public UrlFetcher(Duration timeout, long maxBytes, SSLContext ssl) {
        this(timeout, maxBytes, ssl, HostResolver.SYSTEM);
    }

    public UrlFetcher(Duration timeout, long maxBytes, SSLContext ssl, HostResolver resolver) {
        if (timeout.isNegative() || timeout.isZero() || maxBytes < 1) {
            throw new IllegalArgumentException("URL fetch timeout and byte limit must be positive");
        }
        this.timeout = timeout;
        this.maxBytes = maxBytes;
        this.http = new PinnedHttpsGet(Objects.requireNonNull(ssl, "ssl"), maxBytes);
        this.resolver = Objects.requireNonNull(resolver, "resolver");
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
        long deadline = System.nanoTime() + timeout.toNanos();
        List<InetAddress> addresses = resolve(uri.getHost());
        if (!privateAllowed) {
            refuseSpecialPurpose(uri.getHost(), addresses, origin);
        }
        PinnedHttpsGet.Response response = exchange(uri, addresses, deadline);
        int status = response.status();
        if (status >= 300 && status < 400) {
            throw new IngestException(422, "url-redirected", uri + " answered " + status + " redirecting to "
                    + response.header("Location").orElse("(no Location header)")
                    + "; redirects are not followed — ingest the final URL if its origin is allowed");
        }
        if (status < 200 || status >= 300) {
            throw new IngestException(422, "url-fetch-failed", uri + " answered HTTP " + status);
        }
        String contentType = response.header("Content-Type").orElse(null);
        return new Fetched(uri, response.body(), mediaTypeOf(contentType), charsetOf(contentType), fileNameOf(uri));
    }

    /** Tries the checked addresses in the resolver's order; the first that accepts the connection serves the exchange. */
    private PinnedHttpsGet.Response exchange(URI uri, List<InetAddress> addresses, long deadline) {
        IOException unreachable = null;
        for (InetAddress address : addresses) {
            try {
                return http.get(uri, address, deadline);
            } catch (java.net.ConnectException | java.net.NoRouteToHostException e) {
                unreachable = e; // nothing was sent: the next address may answer
            } catch (IOException e) {
                throw failure(uri, e);
            }
        }
        throw failure(uri, unreachable);
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

    private List<InetAddress> resolve(String host) {
        try {
            InetAddress[] answer = resolver.resolve(PinnedHttpsGet.bare(host));
            if (answer == null || answer.length == 0) {
                throw new UnknownHostException(host);
            }
            return List.of(answer);
        } catch (UnknownHostException e) {
            throw new IngestException(422, "url-fetch-failed", "host " + host + " does not resolve");
        }
    }

    private static void refuseSpecialPurpose(String host, List<InetAddress> addresses, Origin origin) {
        for (InetAddress address : addresses) {
            Optional<String> refusal = SpecialPurposeAddresses.refusal(address);
            if (refusal.isPresent()) {
                throw new IngestException(403, "origin-not-allowed", "host " + host + " resolves to " + address.getHostAddress()
                        + ", a special-purpose address (" + refusal.get() + "); only origins listed in the tenant's"
                        + " ingest.privateOrigins may (" + origin + " is not)");
            }
        }
    }

    private IngestException failure(URI uri, Throwable cause) {
        if (cause instanceof PinnedHttpsGet.TooLarge tooLarge) {
            return new IngestException(413, "document-too-large", uri + " is " + (tooLarge.declared >= 0 ? tooLarge.declared + " bytes" : "larger than that")
                    + "; the URL ingest limit is " + maxBytes + " bytes");
        }
        if (cause instanceof SocketTimeoutException) {
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
}
