package io.corpora.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdentifiersTest {

    /** The hand-written metadata-key check accepts exactly what the documented pattern accepts. */
    @Test
    void theMetadataKeyCheckAgreesWithItsPattern() {
        char[] alphabet = {'A', 'Z', 'a', 'z', '_', '0', '9', '.', '-', ' ', '@', '[', '`', '{', '/', ':', 'é', '\n'};
        List<String> keys = new ArrayList<>(List.of("", "a".repeat(127), "a".repeat(128), "a".repeat(129), "_" + "9".repeat(127),
                "9" + "a".repeat(10), "a\u0660", "ﬁle"));
        for (char a : alphabet) {
            keys.add(String.valueOf(a));
            for (char b : alphabet) {
                keys.add("" + a + b);
                for (char c : alphabet) {
                    keys.add("" + a + b + c);
                }
            }
        }
        int accepted = 0;
        for (String key : keys) {
            boolean expected = Identifiers.METADATA_KEY.matcher(key).matches();
            assertEquals(expected, Identifiers.isMetadataKey(key), () -> "key " + Identifiers.quote(key));
            accepted += expected ? 1 : 0;
        }
        assertTrue(accepted > 400 && keys.size() - accepted > 400, "both outcomes are exercised: " + accepted + " of " + keys.size());
    }
}
