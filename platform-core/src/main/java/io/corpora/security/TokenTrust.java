package io.corpora.security;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Which key the server trusts to verify tokens, decided once at boot. There is no default: either the operator configures
 * a verification key (a JWKS URL of the identity provider, a PEM file, or the key itself) and the expected issuer, or
 * development mode is switched on explicitly and the server trusts the committed development key, with which anyone can
 * mint any token. Anything else refuses to start ({@link RefusedException}), so a forgotten setting in production can
 * never make the development key trusted.
 *
 * <p>Development mode is switched on only by the JVM system property {@value #DEV_MODE_PROPERTY}{@code =true} or the
 * environment variable {@value #DEV_MODE_ENVIRONMENT}{@code =true}, never by a server.xml variable or a properties file
 * that could ship with the application: the development key is supplied through MicroProfile Config by a config source,
 * and a config source can read only those two without reading the configuration it is part of.
 */
public final class TokenTrust {

    public static final String DEV_MODE_PROPERTY = "corpora.dev.mode";
    public static final String DEV_MODE_ENVIRONMENT = "CORPORA_DEV_MODE";
    /** A JWKS URL (e.g. Keycloak's {@code …/protocol/openid-connect/certs}), or a PEM or JWKS file. */
    public static final String PUBLIC_KEY_LOCATION = "mp.jwt.verify.publickey.location";
    /** The key itself (PEM, JWK or JWKS text). */
    public static final String PUBLIC_KEY = "mp.jwt.verify.publickey";
    public static final String ISSUER = "mp.jwt.verify.issuer";
    /** The verification settings the operator may set, in the order the messages name them. */
    public static final List<String> SETTINGS = List.of(PUBLIC_KEY_LOCATION, PUBLIC_KEY, ISSUER);
    /** The development public key, on the application's class path (the private key never ships with the server). */
    public static final String DEV_PUBLIC_KEY_RESOURCE = "io/corpora/security/dev-jwt/public.pem";

    private static final String HOW = "Configure " + PUBLIC_KEY_LOCATION + " (your identity provider's JWKS URL, e.g."
            + " https://idp.example.com/realms/corpora/protocol/openid-connect/certs) and " + ISSUER + " (e.g. environment"
            + " variables MP_JWT_VERIFY_PUBLICKEY_LOCATION and MP_JWT_VERIFY_ISSUER), or, on a development machine only, switch"
            + " development mode on with -D" + DEV_MODE_PROPERTY + "=true or " + DEV_MODE_ENVIRONMENT + "=true.";

    private TokenTrust() {}

    /** How tokens are verified. */
    public enum Mode { CONFIGURED, DEVELOPMENT }

    /** @param verifiedWith a description of the key for the boot log, e.g. {@code mp.jwt.verify.publickey.location=https://…} */
    public record Decision(Mode mode, String verifiedWith, String issuer) {
        public boolean developmentMode() {
            return mode == Mode.DEVELOPMENT;
        }
    }

    /** The server must not start with this configuration; the message names the settings to fix. */
    public static final class RefusedException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        RefusedException(String message) {
            super(message);
        }
    }

    /** Whether development mode is switched on: exactly {@code true} (any case) in the system property or the environment. */
    public static boolean developmentMode(UnaryOperator<String> systemProperties, UnaryOperator<String> environment) {
        return isTrue(systemProperties.apply(DEV_MODE_PROPERTY)) || isTrue(environment.apply(DEV_MODE_ENVIRONMENT));
    }

    /**
     * @param developmentMode   {@link #developmentMode}
     * @param operatorSettings  the {@link #SETTINGS} as the operator configured them (any config source but the development
     *                          one), by name; absent or blank means unset
     * @param devModeElsewhere  where {@value #DEV_MODE_PROPERTY} is set to true without switching development mode on (e.g. a
     *                          server.xml variable), or null; named in the refusal so the operator sees why it did not count
     * @throws RefusedException when neither a complete verification setup nor development mode alone is configured
     */
    public static Decision decide(boolean developmentMode, Map<String, String> operatorSettings, String devModeElsewhere) {
        List<String> set = SETTINGS.stream().filter(name -> !blank(operatorSettings.get(name))).toList();
        if (developmentMode) {
            if (!set.isEmpty()) {
                throw new RefusedException("Development mode is on, and it trusts only the development key, but " + String.join(" and ", set)
                        + (set.size() == 1 ? " is" : " are") + " configured too. Remove " + (set.size() == 1 ? "it" : "them")
                        + " to develop, or switch development mode off (" + DEV_MODE_PROPERTY + " / " + DEV_MODE_ENVIRONMENT
                        + ") to verify with your identity provider.");
            }
            return new Decision(Mode.DEVELOPMENT, "the committed development key (" + DEV_PUBLIC_KEY_RESOURCE + ")", TokenClaims.DEV_ISSUER);
        }
        boolean location = set.contains(PUBLIC_KEY_LOCATION);
        boolean key = set.contains(PUBLIC_KEY);
        List<String> problems = new ArrayList<>();
        if (location && key) {
            problems.add("both " + PUBLIC_KEY_LOCATION + " and " + PUBLIC_KEY + " are set; set only one");
        } else if (!location && !key) {
            problems.add("no verification key is configured (" + PUBLIC_KEY_LOCATION + " or " + PUBLIC_KEY + ")");
        }
        if (!set.contains(ISSUER)) {
            problems.add("no expected issuer is configured (" + ISSUER + ")");
        }
        if (!problems.isEmpty()) {
            String ignored = devModeElsewhere == null ? "" : " (" + DEV_MODE_PROPERTY + "=true in " + devModeElsewhere
                    + " does not count: only the system property or the environment variable switch development mode on.)";
            throw new RefusedException("Corpora refuses to start: " + String.join("; ", problems) + ". " + HOW + ignored);
        }
        String verifiedWith = location ? PUBLIC_KEY_LOCATION + "=" + operatorSettings.get(PUBLIC_KEY_LOCATION).strip()
                : PUBLIC_KEY + " (inline key)";
        return new Decision(Mode.CONFIGURED, verifiedWith, operatorSettings.get(ISSUER).strip());
    }

    private static boolean isTrue(String value) {
        return value != null && value.strip().toLowerCase(Locale.ROOT).equals("true");
    }

    private static boolean blank(String value) {
        return value == null || value.isBlank();
    }
}
