package io.corpora.server.persistence;

import io.corpora.testkit.ForwardingVectorStore;

import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.VectorStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test input: a real store that "kills the process" on cue — it throws {@link SimulatedCrash}, an {@link Error} that no
 * recovery code catches — so a test can reproduce the exact state a crash at that point leaves behind.
 */
final class CrashingStore extends ForwardingVectorStore {

    /** The process died here. */
    static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash(String where) {
            super("simulated crash " + where);
        }
    }

    private final AtomicInteger crashes = new AtomicInteger();
    /** Upserts still allowed before the crash; negative: never crash. */
    final AtomicInteger upsertsBeforeCrash = new AtomicInteger(-1);
    volatile boolean crashOnDeleteWhere;
    /** Deletes fail (a RuntimeException the code under test sees) instead of killing the process. */
    volatile boolean deleteWhereFails;

    CrashingStore(VectorStore delegate) {
        super(delegate);
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        if (upsertsBeforeCrash.getAndDecrement() == 0) {
            throw crash("before an upsert");
        }
        super.upsert(namespace, chunks);
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        if (crashOnDeleteWhere) {
            throw crash("before a delete");
        }
        if (deleteWhereFails) {
            throw new IllegalStateException("the store refuses the delete");
        }
        return super.deleteWhere(namespace, filter);
    }

    /** How many times the store killed its process so far. */
    int crashes() {
        return crashes.get();
    }

    private SimulatedCrash crash(String where) {
        crashes.incrementAndGet();
        return new SimulatedCrash(where);
    }
}
