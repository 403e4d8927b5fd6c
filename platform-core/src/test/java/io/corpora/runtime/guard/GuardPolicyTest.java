package io.corpora.runtime.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class GuardPolicyTest {

    @Test
    void configurationOverridesTheDefaultsOfItsKindOnly() {
        Map<String, String> config = Map.of("corpora.ft.reranker.timeout", "250", "corpora.ft.reranker.requestVolumeThreshold", "4",
                "corpora.ft.reranker.failureRatio", "0.75", "corpora.ft.store.bulkhead", "3");
        GuardPolicy reranker = GuardPolicy.configured(CallKind.RERANKER, key -> Optional.ofNullable(config.get(key)));
        assertEquals(Duration.ofMillis(250), reranker.timeout());
        assertEquals(4, reranker.requestVolumeThreshold());
        assertEquals(0.75, reranker.failureRatio());
        assertEquals(GuardPolicy.defaults(CallKind.RERANKER).bulkhead(), reranker.bulkhead());
        assertEquals(3, GuardPolicy.configured(CallKind.STORE, key -> Optional.ofNullable(config.get(key))).bulkhead());
        assertEquals(0, GuardPolicy.defaults(CallKind.RERANKER).maxRetries(), "a reranker degrades instead of retrying");
        assertEquals(2, GuardPolicy.defaults(CallKind.STORE).maxRetries());
    }

    @Test
    void invalidValuesNameTheKeyFamily() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GuardPolicy.configured(CallKind.EMBEDDER, key -> key.endsWith("failureRatio") ? Optional.of("1.5") : Optional.empty()));
        assertTrue(e.getMessage().contains("corpora.ft.embedder"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> GuardPolicy.configured(CallKind.STORE, key -> key.endsWith(".timeout") ? Optional.of("0") : Optional.empty()));
    }
}
