package io.corpora.filter.audience;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AudienceFilterHookProviderTest {

    private final AudienceFilterHookProvider provider = new AudienceFilterHookProvider();

    private RetrievalFilterHook hook(Map<String, String> config) {
        return provider.create(PluginContext.of(Path.of("unused"), "test"), PluginConfig.validate("audience", provider.configOptions(), config));
    }

    @Test
    void defaultTemplatesExpandFromTheActor() {
        Actor alice = new Actor("acme", "alice", Set.of("reader", "writer"), Set.of("legal"), Map.of());
        MetadataFilter filter = hook(Map.of()).filterFor(alice);

        assertEquals(MetadataFilter.anyOf("audience", List.of("public", "role:reader", "role:writer", "user:alice", "group:legal")), filter);
        assertTrue(filter.matches(Map.of("audience", List.of("group:legal", "group:hr"))));
        assertTrue(filter.matches(Map.of("audience", "public")));
        assertFalse(filter.matches(Map.of("audience", List.of("group:hr", "user:bob"))));
        assertFalse(filter.matches(Map.of("title", "no audience at all")));
    }

    @Test
    void anActorHoldingNoValueSeesNothing() {
        Actor nobody = new Actor("acme", "svc", Set.of(), Set.of(), Map.of());
        MetadataFilter filter = hook(Map.of("templates", "group:{groups}")).filterFor(nobody);
        assertEquals(MetadataFilter.anyOf("audience", List.of()), filter);
        assertFalse(filter.matches(Map.of("audience", List.of("group:legal"))));
    }

    /** Refused where a definition enters (validate) and, the same way, at creation. */
    @Test
    void badTemplatesAndKeysAreRefused() {
        for (Map<String, String> bad : List.of(Map.of("templates", "team:{team}"), Map.of("templates", "{sub}:{groups}"), Map.of("key", "bad key'"))) {
            String refusedByCreate = assertThrows(IllegalArgumentException.class, () -> hook(bad)).getMessage();
            assertEquals(refusedByCreate, assertThrows(IllegalArgumentException.class,
                    () -> provider.validate(PluginConfig.validate("audience", provider.configOptions(), bad))).getMessage(), bad.toString());
        }
        provider.validate(PluginConfig.validate("audience", provider.configOptions(), Map.of("templates", "public,group:{groups}")));
    }
}
