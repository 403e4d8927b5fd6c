package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.corpora.spi.Namespace;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** What a namespace's remembered size survives: time, this store's writes, and a write that ends while it is counted. */
class NamespaceSizesTest {

    private static final long MS = 1_000_000L;
    private final AtomicLong now = new AtomicLong(42 * MS);
    private final NamespaceSizes sizes = new NamespaceSizes(1000, now::get);
    private final Namespace acme = Namespace.of("acme");

    @Test
    void aVerdictHoldsUntilItsTtlEnds() {
        sizes.remember(acme, null, true, sizes.writesSoFar());
        now.addAndGet(999 * MS);
        assertEquals(Boolean.TRUE, sizes.isSmall(acme, null));
        now.addAndGet(MS);
        assertNull(sizes.isSmall(acme, null), "counted again once the TTL is over");
    }

    @Test
    void verdictsAreKeptPerEmbedderAndPartition() {
        sizes.remember(acme, "e1", true, sizes.writesSoFar());
        sizes.remember(acme, null, false, sizes.writesSoFar());
        assertEquals(Boolean.TRUE, sizes.isSmall(acme, "e1"));
        assertEquals(Boolean.FALSE, sizes.isSmall(acme, null));
        assertNull(sizes.isSmall(acme, "e2"));
        assertNull(sizes.isSmall(Namespace.of("acme", "legal"), "e1"));
    }

    @Test
    void aWriteForgetsItsNamespaceOnly() {
        Namespace other = Namespace.of("other");
        sizes.remember(acme, "e1", true, sizes.writesSoFar());
        sizes.remember(acme, null, true, sizes.writesSoFar());
        sizes.remember(other, null, true, sizes.writesSoFar());
        sizes.forget(acme);
        assertNull(sizes.isSmall(acme, "e1"));
        assertNull(sizes.isSmall(acme, null));
        assertEquals(Boolean.TRUE, sizes.isSmall(other, null));
    }

    @Test
    void aTenantWideWriteForgetsEveryPartition() {
        Namespace legal = Namespace.of("acme", "legal");
        sizes.remember(acme, null, true, sizes.writesSoFar());
        sizes.remember(legal, null, true, sizes.writesSoFar());
        sizes.forgetTenant("acme");
        assertNull(sizes.isSmall(acme, null));
        assertNull(sizes.isSmall(legal, null));
    }

    @Test
    void aCountDuringWhichAWriteEndedIsNotRemembered() {
        long before = sizes.writesSoFar();
        sizes.forget(Namespace.of("elsewhere")); // one counter for all writes: conservative, and writes are rare next to searches
        sizes.remember(acme, null, true, before);
        assertNull(sizes.isSmall(acme, null));
    }

    @Test
    void aZeroTtlRemembersNothing() {
        NamespaceSizes never = new NamespaceSizes(0, now::get);
        never.remember(acme, null, true, never.writesSoFar());
        assertNull(never.isSmall(acme, null));
    }
}
