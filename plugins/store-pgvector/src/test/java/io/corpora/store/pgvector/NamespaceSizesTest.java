package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.corpora.spi.Namespace;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * What a namespace's remembered size survives: time, this store's writes, and a write that ends while it is counted; and
 * that verdicts against different bounds (the exact path's, the keyword scan's) are kept apart but forgotten together.
 */
class NamespaceSizesTest {

    private static final long MS = 1_000_000L;
    private final AtomicLong now = new AtomicLong(42 * MS);
    private final NamespaceSizes sizes = new NamespaceSizes(1000, now::get);
    private final Namespace acme = Namespace.of("acme");
    private static final int EXACT = 10_000;
    private static final int SCAN = 2_000;

    @Test
    void aVerdictHoldsUntilItsTtlEnds() {
        sizes.remember(acme, null, EXACT, true, sizes.writesSoFar());
        now.addAndGet(999 * MS);
        assertEquals(Boolean.TRUE, sizes.isWithin(acme, null, EXACT));
        now.addAndGet(MS);
        assertNull(sizes.isWithin(acme, null, EXACT), "counted again once the TTL is over");
    }

    @Test
    void verdictsAreKeptPerEmbedderAndPartition() {
        sizes.remember(acme, "e1", EXACT, true, sizes.writesSoFar());
        sizes.remember(acme, null, EXACT, false, sizes.writesSoFar());
        assertEquals(Boolean.TRUE, sizes.isWithin(acme, "e1", EXACT));
        assertEquals(Boolean.FALSE, sizes.isWithin(acme, null, EXACT));
        assertNull(sizes.isWithin(acme, "e2", EXACT));
        assertNull(sizes.isWithin(Namespace.of("acme", "legal"), "e1", EXACT));
    }

    @Test
    void aWriteForgetsItsNamespaceOnly() {
        Namespace other = Namespace.of("other");
        sizes.remember(acme, "e1", EXACT, true, sizes.writesSoFar());
        sizes.remember(acme, null, EXACT, true, sizes.writesSoFar());
        sizes.remember(other, null, EXACT, true, sizes.writesSoFar());
        sizes.forget(acme);
        assertNull(sizes.isWithin(acme, "e1", EXACT));
        assertNull(sizes.isWithin(acme, null, EXACT));
        assertEquals(Boolean.TRUE, sizes.isWithin(other, null, EXACT));
    }

    @Test
    void aTenantWideWriteForgetsEveryPartition() {
        Namespace legal = Namespace.of("acme", "legal");
        sizes.remember(acme, null, EXACT, true, sizes.writesSoFar());
        sizes.remember(legal, null, EXACT, true, sizes.writesSoFar());
        sizes.forgetTenant("acme");
        assertNull(sizes.isWithin(acme, null, EXACT));
        assertNull(sizes.isWithin(legal, null, EXACT));
    }

    @Test
    void aCountDuringWhichAWriteEndedIsNotRemembered() {
        long before = sizes.writesSoFar();
        sizes.forget(Namespace.of("elsewhere")); // one counter for all writes: conservative, and writes are rare next to searches
        sizes.remember(acme, null, EXACT, true, before);
        assertNull(sizes.isWithin(acme, null, EXACT));
    }

    @Test
    void aZeroTtlRemembersNothing() {
        NamespaceSizes never = new NamespaceSizes(0, now::get);
        never.remember(acme, null, EXACT, true, never.writesSoFar());
        assertNull(never.isWithin(acme, null, EXACT));
    }

    @Test
    void verdictsAgainstDifferentBoundsAreKeptApart() {
        sizes.remember(acme, null, EXACT, true, sizes.writesSoFar());
        sizes.remember(acme, null, SCAN, false, sizes.writesSoFar());
        assertEquals(Boolean.TRUE, sizes.isWithin(acme, null, EXACT));
        assertEquals(Boolean.FALSE, sizes.isWithin(acme, null, SCAN), "3,000 rows: within the exact bound, not the scan's");
        assertNull(sizes.isWithin(acme, "e1", SCAN));
    }

    @Test
    void aWriteForgetsItsNamespaceAgainstEveryBound() {
        sizes.remember(acme, "e1", EXACT, true, sizes.writesSoFar());
        sizes.remember(acme, null, SCAN, true, sizes.writesSoFar());
        sizes.forget(acme);
        assertNull(sizes.isWithin(acme, "e1", EXACT));
        assertNull(sizes.isWithin(acme, null, SCAN));
        sizes.remember(acme, null, SCAN, true, sizes.writesSoFar());
        sizes.forgetTenant("acme");
        assertNull(sizes.isWithin(acme, null, SCAN));
    }
}
