package io.corpora.controlplane;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * The origin of a URL (RFC 6454): scheme, host and port, lower-cased, the port made explicit. Two URLs share an origin
 * only when all three are equal, so {@code https://docs.example.com} admits neither {@code http://docs.example.com},
 * {@code https://docs.example.com:8443} nor {@code https://evil-docs.example.com}.
 */
public record Origin(String scheme, String host, int port) {

    public static Origin of(URI url) {
        if (url.getScheme() == null || url.getHost() == null) {
            throw new IllegalArgumentException("'" + url + "' is not an absolute URL with a host");
        }
        String scheme = url.getScheme().toLowerCase(Locale.ROOT);
        int port = url.getPort() >= 0 ? url.getPort() : switch (scheme) {
            case "https" -> 443;
            case "http" -> 80;
            default -> -1;
        };
        return new Origin(scheme, url.getHost().toLowerCase(Locale.ROOT), port);
    }

    /** An origin as a tenant declares it: {@code https://host[:port]}, with nothing after the authority but an optional '/'. */
    public static Origin parse(String declared) {
        URI uri;
        try {
            uri = new URI(declared);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + declared + "' is not an origin: " + e.getReason());
        }
        boolean bare = (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))
                && uri.getRawQuery() == null && uri.getRawFragment() == null && uri.getRawUserInfo() == null;
        if (!bare || !"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getPort() > 65535 || uri.getPort() == 0) {
            throw new IllegalArgumentException("'" + declared + "' is not an origin: write https://host or https://host:port");
        }
        return of(uri);
    }

    @Override
    public String toString() {
        boolean defaultPort = (scheme.equals("https") && port == 443) || (scheme.equals("http") && port == 80);
        return scheme + "://" + host + (defaultPort ? "" : ":" + port);
    }
}
