package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
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

class AccessFiltersTest {

    private final Actor alice = new Actor("acme", "alice", Set.of("reader"), Set.of("legal"), Map.of());
    private final MetadataFilter english = MetadataFilter.eq("lang", "en");

    @Test
    void withoutAHookTheRequestFilterIsUsedAsIs() {
        assertSame(english, AccessFilters.effectiveFilter(null, alice, english));
        assertTrue(AccessFilters.effectiveFilter(null, alice, MetadataFilter.all()).isMatchAll());
    }

    @Test
    void theHookFilterIsAndedSoARequestCanOnlyNarrow() {
        MetadataFilter filter = AccessFilters.effectiveFilter(a -> MetadataFilter.anyOf("audience", List.of("public", "user:" + a.subject())), alice, english);
        assertTrue(filter.matches(Map.of("audience", List.of("user:alice"), "lang", "en")));
        assertFalse(filter.matches(Map.of("audience", "group:finance", "lang", "en")));
        assertFalse(filter.matches(Map.of("audience", "public", "lang", "de")));
    }

    @Test
    void aThrowingOrEmptyHookFailsClosed() {
        assertThrows(AccessFilters.AccessDeniedException.class,
                () -> AccessFilters.effectiveFilter(a -> { throw new IllegalStateException("directory down"); }, alice, english));
        assertThrows(AccessFilters.AccessDeniedException.class, () -> AccessFilters.effectiveFilter(a -> null, alice, english));
    }

    @Test
    void requestFiltersMayNotMentionReservedKeys() {
        assertThrows(IllegalArgumentException.class,
                () -> AccessFilters.effectiveFilter(null, alice, MetadataFilter.eq(ReservedKeys.TENANT, "globex")));
        assertThrows(IllegalArgumentException.class,
                () -> AccessFilters.effectiveFilter(null, alice, MetadataFilter.not(MetadataFilter.exists("_partition"))));
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
