package io.corpora.tenancy.config;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SecretOptionsTest {

    @Test
    void secretWordsCountOnlyAsWholeWords() {
        for (String secret : new String[] {"password", "apiKey", "api_key", "api-key", "accessToken", "token", "db.password",
                "clientSecret", "privateKey", "credentials", "APIKEY"}) {
            assertTrue(SecretOptions.looksSecret(secret), secret);
        }
        for (String plain : new String[] {"tokenizerPath", "maxSequenceTokens", "keyword", "secretary", "passwordless.mode.off",
                "key", "publicKey", "modelPath"}) {
            assertFalse(SecretOptions.looksSecret(plain), plain);
        }
    }
}
