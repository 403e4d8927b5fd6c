package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.filter.Actor;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The access decision: one hook evaluation per request, failing closed; the filter a request may only narrow. */
class AccessFiltersTest {

    private final Actor alice = new Actor("acme", "alice", Set.of("reader"), Set.of("legal"), Map.of());
    private final MetadataFilter english = MetadataFilter.eq("lang", "en");

    @Test
    void withoutAHookNothingIsRestrictedAndTheRequestFilterIsUsedAsIs() {
        AccessDecision decision = decide(null, null);
        assertTrue(decision.unrestricted());
        assertTrue(decision.canSee(Map.of("audience", "group:finance")));
        assertEquals(english, decision.narrowedBy(english));
        assertTrue(decision.narrowedBy(MetadataFilter.all()).isMatchAll());
    }

    @Test
    void theHookFilterIsAndedSoARequestCanOnlyNarrow() {
        AccessDecision decision = decide(a -> MetadataFilter.anyOf("audience", List.of("public", "user:" + a.subject())), null);
        assertFalse(decision.unrestricted());
        MetadataFilter filter = decision.narrowedBy(english);
        assertTrue(filter.matches(Map.of("audience", List.of("user:alice"), "lang", "en")));
        assertFalse(filter.matches(Map.of("audience", "group:finance", "lang", "en")));
        assertFalse(filter.matches(Map.of("audience", "public", "lang", "de")));
        assertTrue(decision.canSee(Map.of("audience", "public")), "documents and chunks are judged by the access filter alone");
        assertFalse(decision.canSee(Map.of("lang", "en")), "no audience: visible to nobody under the audience hook");
    }

    @Test
    void aThrowingOrEmptyHookFailsClosed() {
        assertThrows(AccessFilters.AccessDeniedException.class, () -> decide(a -> { throw new IllegalStateException("directory down"); }, null));
        assertThrows(AccessFilters.AccessDeniedException.class, () -> decide(a -> null, null));
    }

    @Test
    void requestFiltersMayNotMentionReservedKeys() {
        AccessDecision decision = decide(null, null);
        assertThrows(IllegalArgumentException.class, () -> decision.narrowedBy(MetadataFilter.eq(ReservedKeys.TENANT, "globex")));
        assertThrows(IllegalArgumentException.class, () -> decision.narrowedBy(MetadataFilter.not(MetadataFilter.exists("_partition"))));
    }

    @Test
    void aDecisionCannotBeMadeForAnotherTenantOrPartitionThanItsToken() {
        assertThrows(IllegalStateException.class, () -> AccessDecision.decide(alice, tenant("globex"), Namespace.of("globex"), null, null));
        assertThrows(IllegalStateException.class, () -> decide(null, "eng"), "bound to eng, acting on the default partition");
        AccessDecision bound = AccessDecision.decide(alice, tenant("acme"), Namespace.of("acme", "eng"), "eng", null);
        assertFalse(bound.allPartitions());
    }

    private AccessDecision decide(io.corpora.spi.filter.RetrievalFilterHook hook, String boundPartition) {
        return AccessDecision.decide(alice, tenant("acme"), Namespace.of("acme"), boundPartition, hook);
    }

    private static io.corpora.controlplane.Tenant tenant(String id) {
        io.corpora.controlplane.TenantDefinition definition = new io.corpora.controlplane.TenantDefinition(id, id, io.corpora.controlplane.TenantState.ACTIVE,
                new io.corpora.controlplane.PluginChoice("reference", Map.of()), new io.corpora.controlplane.PluginChoice("onnx", Map.of()), null,
                new io.corpora.controlplane.RetrievalDefaults("vector", 5, null, null, false), io.corpora.controlplane.Quotas.UNLIMITED,
                io.corpora.controlplane.AccessPolicy.NONE);
        return new io.corpora.controlplane.Tenant(definition, null, java.time.Instant.now(), java.time.Instant.now(), 1);
    }

    @Test
    void stampingReplacesCallerReservedKeysAndNamespacesTheId() {
        Chunk fromCaller = new Chunk("doc:0", "doc", 0, "text", List.of(), Map.of("_tenant", "globex", "_partition", "x", "lang", "en"));
        Chunk stamped = ReservedKeyStamper.stamp(fromCaller, Namespace.of("acme", "legal"), "doc", 3);

        assertEquals("acme", stamped.metadata().get(ReservedKeys.TENANT));
        assertEquals("legal", stamped.metadata().get(ReservedKeys.PARTITION));
        assertEquals(3, stamped.metadata().get(ReservedKeys.VERSION));
        assertEquals("en", stamped.metadata().get("lang"));
        assertEquals("acme~legal/doc@v3#0", stamped.id());
        assertEquals(Map.of("lang", "en"), ReservedKeyStamper.stripCallerKeys(Map.of("_tenant", "globex", "lang", "en")));
    }
}
