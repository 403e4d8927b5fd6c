package io.corpora.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Mints RS256 JWTs with the development key pair, for local use and tests only: anyone holding the committed
 * development key can mint any token. Production verifies an identity provider's keys instead.
 */
public final class DevTokenMinter {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private final PrivateKey key;
    private final String issuer;
    private final Clock clock;

    public DevTokenMinter(PrivateKey key, String issuer, Clock clock) {
        this.key = key;
        this.issuer = issuer;
        this.clock = clock;
    }

    public static DevTokenMinter fromPem(Path privateKeyPem) {
        return fromPem(privateKeyPem, TokenClaims.DEV_ISSUER);
    }

    /** Tokens of another issuer than the development one, e.g. for a test of a server configured with that issuer. */
    public static DevTokenMinter fromPem(Path privateKeyPem, String issuer) {
        return new DevTokenMinter(readPkcs8Pem(privateKeyPem), issuer, Clock.systemUTC());
    }

    /**
     * @param subject the {@code sub} and {@code upn}
     * @param tenant  the tenant claim, or null for a platform-admin token
     * @param roles   the {@code groups} claim
     * @param extra   further claims (e.g. {@link TokenClaims#ACL_GROUPS}); may not override the ones above
     */
    public String mint(String subject, String tenant, Collection<String> roles, Duration ttl, Map<String, ?> extra) {
        Map<String, Object> claims = new LinkedHashMap<>();
        if (extra != null) {
            claims.putAll(extra);
        }
        claims.put("sub", subject);
        claims.put("upn", subject);
        claims.put(TokenClaims.GROUPS, List.copyOf(roles));
        if (tenant != null) {
            claims.put(TokenClaims.TENANT, tenant);
        } else {
            claims.remove(TokenClaims.TENANT);
        }
        return mintClaims(claims, ttl);
    }

    /**
     * A token carrying {@code claims} exactly as given (any JSON shape, e.g. a malformed {@code partition} for a test of
     * the server's refusal), plus the registered claims the server verifies: {@code iss}, {@code aud}, {@code jti},
     * {@code iat} and {@code exp}.
     */
    public String mintClaims(Map<String, ?> claims, Duration ttl) {
        long now = clock.instant().getEpochSecond();
        Map<String, Object> payload = new LinkedHashMap<>(claims);
        payload.put("iss", issuer);
        payload.put("aud", TokenClaims.AUDIENCE);
        payload.put("jti", UUID.randomUUID().toString());
        payload.put("iat", now);
        payload.put("exp", now + ttl.toSeconds());
        try {
            String header = encode(Map.of("alg", "RS256", "typ", "JWT"));
            String body = encode(payload);
            Signature signature = Signature.getInstance("SHA256withRSA");
            signature.initSign(key);
            signature.update((header + "." + body).getBytes(StandardCharsets.US_ASCII));
            return header + "." + body + "." + BASE64URL.encodeToString(signature.sign());
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot sign a development token", e);
        }
    }

    private static String encode(Map<String, ?> json) throws IOException {
        return BASE64URL.encodeToString(JSON.writeValueAsBytes(json));
    }

    static PrivateKey readPkcs8Pem(Path pem) {
        try {
            String text = Files.readString(pem, StandardCharsets.US_ASCII);
            if (!text.contains("-----BEGIN PRIVATE KEY-----")) {
                throw new IllegalArgumentException(pem + " is not a PKCS#8 PEM private key (BEGIN PRIVATE KEY)");
            }
            String base64 = text.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read private key " + pem + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("invalid RSA private key in " + pem, e);
        }
    }
}
