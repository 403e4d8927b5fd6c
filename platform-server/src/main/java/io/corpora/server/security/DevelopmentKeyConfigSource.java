package io.corpora.server.security;

import io.corpora.security.TokenClaims;
import io.corpora.security.TokenTrust;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * In development mode only ({@link TokenTrust#developmentMode}), supplies MicroProfile JWT with the development public key
 * and issuer, at the lowest ordinal; otherwise it supplies nothing, so no key is trusted unless the operator configures
 * one. {@link TokenTrustStartup} refuses to start when development mode and an operator's key are both configured.
 * Registered through {@code META-INF/services}.
 */
public class DevelopmentKeyConfigSource implements ConfigSource {

    /** The name MicroProfile Config reports as the source of the values, so the startup check can tell them apart. */
    public static final String NAME = "corpora development mode";

    private final Map<String, String> properties;

    public DevelopmentKeyConfigSource() {
        properties = TokenTrust.developmentMode(System::getProperty, System::getenv)
                ? Map.of(TokenTrust.PUBLIC_KEY, developmentPublicKey(), TokenTrust.ISSUER, TokenClaims.DEV_ISSUER)
                : Map.of();
    }

    private static String developmentPublicKey() {
        try (InputStream pem = DevelopmentKeyConfigSource.class.getClassLoader().getResourceAsStream(TokenTrust.DEV_PUBLIC_KEY_RESOURCE)) {
            if (pem == null) {
                throw new IllegalStateException(TokenTrust.DEV_PUBLIC_KEY_RESOURCE + " is missing from the application");
            }
            return new String(pem.readAllBytes(), StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public Set<String> getPropertyNames() {
        return properties.keySet();
    }

    @Override
    public String getValue(String propertyName) {
        return properties.get(propertyName);
    }

    @Override
    public String getName() {
        return NAME;
    }

    /** Below every standard source (microprofile-config.properties is 100), so nothing the operator sets is shadowed. */
    @Override
    public int getOrdinal() {
        return 1;
    }
}
