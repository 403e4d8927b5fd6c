package io.corpora.server.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RateLimitStoreTest {

    private static final String EMBEDDED = "jdbc:h2:file:/var/corpora/control-plane;MODE=PostgreSQL;WRITE_DELAY=0";
    private static final String POSTGRES = "jdbc:postgresql://127.0.0.1:5432/corpora";

    @Test
    void autoKeepsBucketsInMemoryOnlyWhenNoOtherProcessCanOpenTheControlPlane() {
        assertEquals(RateLimitStore.LOCAL, RateLimitStore.choose("auto", EMBEDDED));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose("auto", POSTGRES));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose("auto", "jdbc:h2:tcp://db:9092/control-plane"));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose("auto", null), "an unreadable URL keeps the buckets shared");
    }

    @Test
    void anUnsetOrBlankSettingIsAuto() {
        assertEquals(RateLimitStore.LOCAL, RateLimitStore.choose(null, EMBEDDED));
        assertEquals(RateLimitStore.LOCAL, RateLimitStore.choose("  ", EMBEDDED));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose(null, POSTGRES));
    }

    @Test
    void anExplicitChoiceHoldsWhateverTheDatabase() {
        assertEquals(RateLimitStore.LOCAL, RateLimitStore.choose("local", POSTGRES));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose("control-plane", EMBEDDED));
        assertEquals(RateLimitStore.CONTROL_PLANE, RateLimitStore.choose(" Control-Plane ", EMBEDDED));
    }

    @Test
    void anUnknownValueIsRefusedByName() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> RateLimitStore.choose("redis", EMBEDDED));
        assertTrue(refused.getMessage().contains(RateLimitStore.SETTING) && refused.getMessage().contains("'redis'"), refused.getMessage());
    }
}
