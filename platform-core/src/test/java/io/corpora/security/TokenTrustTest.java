package io.corpora.security;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TokenTrustTest {

    private static final String JWKS = "https://idp.example.com/realms/corpora/protocol/openid-connect/certs";
    private static final String ISSUER = "https://idp.example.com/realms/corpora";

    @Test
    void developmentModeIsOnlyAnExplicitTrueInTheSystemPropertyOrTheEnvironment() {
        assertTrue(TokenTrust.developmentMode(Map.of("corpora.dev.mode", "true")::get, name -> null));
        assertTrue(TokenTrust.developmentMode(name -> null, Map.of("CORPORA_DEV_MODE", " TRUE ")::get));
        assertFalse(TokenTrust.developmentMode(name -> null, name -> null));
        for (String notTrue : new String[] {"", "1", "yes", "on", "false", "truee"}) {
            assertFalse(TokenTrust.developmentMode(Map.of("corpora.dev.mode", notTrue)::get, Map.of("CORPORA_DEV_MODE", notTrue)::get), notTrue);
        }
        assertFalse(TokenTrust.developmentMode(Map.of("corpora_dev_mode", "true")::get, Map.of("corpora.dev.mode", "true")::get),
                "only the two documented names");
    }

    @Test
    void nothingConfiguredRefusesToStartAndNamesEverySetting() {
        TokenTrust.RefusedException refused = assertThrows(TokenTrust.RefusedException.class, () -> TokenTrust.decide(false, Map.of(), null));
        for (String named : new String[] {"mp.jwt.verify.publickey.location", "mp.jwt.verify.issuer", "MP_JWT_VERIFY_PUBLICKEY_LOCATION",
                "-Dcorpora.dev.mode=true", "CORPORA_DEV_MODE=true", "no verification key", "no expected issuer"}) {
            assertTrue(refused.getMessage().contains(named), named + " in: " + refused.getMessage());
        }
    }

    @Test
    void blankSettingsAreUnset() {
        assertThrows(TokenTrust.RefusedException.class,
                () -> TokenTrust.decide(false, Map.of(TokenTrust.PUBLIC_KEY_LOCATION, " ", TokenTrust.ISSUER, ""), null));
    }

    @Test
    void aKeyWithoutAnIssuerOrAnIssuerWithoutAKeyIsRefused() {
        String noIssuer = assertThrows(TokenTrust.RefusedException.class,
                () -> TokenTrust.decide(false, Map.of(TokenTrust.PUBLIC_KEY_LOCATION, JWKS), null)).getMessage();
        assertTrue(noIssuer.contains("no expected issuer") && !noIssuer.contains("no verification key"), noIssuer);
        String noKey = assertThrows(TokenTrust.RefusedException.class,
                () -> TokenTrust.decide(false, Map.of(TokenTrust.ISSUER, ISSUER), null)).getMessage();
        assertTrue(noKey.contains("no verification key") && !noKey.contains("no expected issuer"), noKey);
    }

    @Test
    void bothKeySettingsAtOnceAreRefused() {
        String both = assertThrows(TokenTrust.RefusedException.class, () -> TokenTrust.decide(false,
                Map.of(TokenTrust.PUBLIC_KEY_LOCATION, JWKS, TokenTrust.PUBLIC_KEY, "-----BEGIN PUBLIC KEY-----", TokenTrust.ISSUER, ISSUER),
                null)).getMessage();
        assertTrue(both.contains("set only one"), both);
    }

    @Test
    void aJwksUrlAndAnIssuerAreTrusted() {
        TokenTrust.Decision decision = TokenTrust.decide(false, Map.of(TokenTrust.PUBLIC_KEY_LOCATION, JWKS, TokenTrust.ISSUER, ISSUER), null);
        assertEquals(new TokenTrust.Decision(TokenTrust.Mode.CONFIGURED, "mp.jwt.verify.publickey.location=" + JWKS, ISSUER), decision);
        assertFalse(decision.developmentMode());
        TokenTrust.Decision inline = TokenTrust.decide(false, Map.of(TokenTrust.PUBLIC_KEY, "{\"keys\":[]}", TokenTrust.ISSUER, ISSUER), null);
        assertEquals(TokenTrust.Mode.CONFIGURED, inline.mode());
        assertFalse(inline.verifiedWith().contains("keys"), "the key itself is not logged");
    }

    @Test
    void developmentModeAloneTrustsTheDevelopmentKey() {
        TokenTrust.Decision decision = TokenTrust.decide(true, Map.of(), null);
        assertTrue(decision.developmentMode());
        assertEquals(TokenClaims.DEV_ISSUER, decision.issuer());
        assertTrue(decision.verifiedWith().contains(TokenTrust.DEV_PUBLIC_KEY_RESOURCE), decision.verifiedWith());
    }

    @Test
    void developmentModeTogetherWithAnOperatorKeyOrIssuerIsRefused() {
        for (String setting : TokenTrust.SETTINGS) {
            String message = assertThrows(TokenTrust.RefusedException.class, () -> TokenTrust.decide(true, Map.of(setting, "x"), null))
                    .getMessage();
            assertTrue(message.startsWith("Development mode is on") && message.contains(setting + " is configured too"), message);
        }
    }

    @Test
    void aDevModeVariableThatDoesNotCountIsExplainedInTheRefusal() {
        String message = assertThrows(TokenTrust.RefusedException.class, () -> TokenTrust.decide(false, Map.of(), "server.xml"))
                .getMessage();
        assertTrue(message.contains("corpora.dev.mode=true in server.xml does not count"), message);
    }
}
