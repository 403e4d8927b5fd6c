package io.corpora.controlplane;

import java.util.List;

/**
 * Where a tenant's {@code {url}} ingests may fetch from. An origin is {@code https://host[:port]}, compared exactly
 * (scheme, host and port). No origin listed: URL ingest is refused.
 *
 * @param allowedOrigins origins on public addresses; a host of one that resolves to a loopback, link-local or private
 *                       address is refused (a DNS answer must not turn an allowed name into a door to the internal network)
 * @param privateOrigins origins explicitly allowed to resolve to loopback, link-local or private addresses (an intranet)
 */
public record IngestPolicy(List<String> allowedOrigins, List<String> privateOrigins) {
    public static final IngestPolicy NONE = new IngestPolicy(List.of(), List.of());

    public IngestPolicy {
        allowedOrigins = allowedOrigins == null ? List.of() : List.copyOf(allowedOrigins);
        privateOrigins = privateOrigins == null ? List.of() : List.copyOf(privateOrigins);
    }

    public boolean isEmpty() {
        return allowedOrigins.isEmpty() && privateOrigins.isEmpty();
    }
}
