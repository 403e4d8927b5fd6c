package io.corpora.server.dataplane;

import io.corpora.controlplane.Tenant;
import io.corpora.ingest.UrlFetcher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Optional;
import javax.net.ssl.SSLContext;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The server's {@link UrlFetcher}, configured from MicroProfile Config and built on first use:
 * {@code corpora.ingest.url.timeout} (ISO-8601 duration, default {@code PT10S}, connect through last byte),
 * {@code corpora.ingest.url.maxBytes} (default 10 MiB) and, to trust servers the JDK's trust store does not (an internal
 * CA), {@code corpora.ingest.url.trustStore} with {@code corpora.ingest.url.trustStorePassword} (PKCS12).
 */
@ApplicationScoped
public class UrlIngest {

    @Inject
    @ConfigProperty(name = "corpora.ingest.url.timeout", defaultValue = "PT10S")
    Duration timeout;

    @Inject
    @ConfigProperty(name = "corpora.ingest.url.maxBytes", defaultValue = "10485760")
    long maxBytes;

    @Inject
    @ConfigProperty(name = "corpora.ingest.url.trustStore")
    Optional<String> trustStore;

    @Inject
    @ConfigProperty(name = "corpora.ingest.url.trustStorePassword")
    Optional<String> trustStorePassword;

    private volatile UrlFetcher fetcher;

    /** Fetches {@code url} under the tenant's ingest policy; failures are {@link io.corpora.ingest.IngestException}s. */
    public UrlFetcher.Fetched fetch(Tenant tenant, String url) {
        return fetcher().fetch(url, tenant.definition().ingest());
    }

    private UrlFetcher fetcher() {
        UrlFetcher current = fetcher;
        if (current == null) {
            synchronized (this) {
                if (fetcher == null) {
                    fetcher = new UrlFetcher(timeout, maxBytes, tls());
                }
                current = fetcher;
            }
        }
        return current;
    }

    private SSLContext tls() {
        if (trustStore.isPresent() && !trustStore.get().isBlank()) {
            return UrlFetcher.trusting(Path.of(trustStore.get()), trustStorePassword.orElse(null));
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("no default TLS context", e);
        }
    }
}
