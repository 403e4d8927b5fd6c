package io.corpora.ingest;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.Quotas;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The documents of a tenant with a document, chunk or byte quota that are being written in this process, counted
 * against the quota before they are stored. A quota check reads the tenant's stored totals, which count a document only
 * once it is activated: two documents checked at the same time would each pass and overshoot together. Each check here
 * adds the growth of the documents still in flight, under one lock per tenant, and reserves its own growth until it is
 * stored or has failed — so the documents of a job may be written in parallel (the job runner's window) without
 * overshooting. The activation that makes the stored totals count a document releases its reservation under the same
 * lock ({@link Reservation#settle}), so no check counts it twice. Documents written by another server are not seen here
 * (as before).
 *
 * <p>The stored totals are an aggregate over the tenant's documents, so reading them before every document made an
 * ingest quadratic in the tenant's size. While documents are in flight a tenant keeps the totals it read last, adds what
 * each activation here stores, and reads them again once they are older than {@code totalsMaxAge}; a check that would
 * refuse always reads them again first, so a document removed meanwhile (which only lowers the totals) never causes a
 * refusal. What the totals may miss is what other servers stored within that age.
 */
final class QuotaReservations {

    /** How one document changes the tenant's totals once stored (a replacement that shrinks: negative). */
    record Growth(long documents, long chunks, long bytes) {
        static final Growth NONE = new Growth(0, 0, 0);

        Growth plus(Growth other) {
            return new Growth(documents + other.documents, chunks + other.chunks, bytes + other.bytes);
        }

        Growth minus(Growth other) {
            return new Growth(documents - other.documents, chunks - other.chunks, bytes - other.bytes);
        }

        /** What is held while the document is in flight: its growth, but nothing it frees (that is freed only once stored). */
        Growth held() {
            return new Growth(Math.max(0, documents), Math.max(0, chunks), Math.max(0, bytes));
        }
    }

    /** A held reservation; {@link #close()} releases it once (the document is stored or failed). */
    final class Reservation implements AutoCloseable {
        private final String tenantId;
        private final Pending state;
        /** What is held while in flight (nothing freed). */
        private final Growth growth;
        /** What the activation stores (a shrinking replacement: negative). */
        private final Growth stores;
        private boolean released;

        private Reservation(String tenantId, Pending state, Growth growth, Growth stores) {
            this.tenantId = tenantId;
            this.state = state;
            this.growth = growth;
            this.stores = stores;
        }

        /**
         * Runs the document's activation, which makes the stored totals count it, and releases the reservation in the same
         * step under the tenant's lock: no check in between counts the document twice (and refuses what would fit).
         */
        <T> T settle(java.util.function.Supplier<T> activation) {
            if (state == null) {
                return activation.get();
            }
            synchronized (state) {
                T activated = activation.get();
                if (state.stored != null) {
                    state.stored = state.stored.plus(stores);
                }
                close();
                return activated;
            }
        }

        /** Releases the reservation (the document failed, or was settled); once. */
        @Override
        public void close() {
            if (state == null) {
                return; // nothing was reserved
            }
            synchronized (state) {
                if (!released) {
                    released = true;
                    state.growth = state.growth.minus(growth);
                    forgetIfIdle(tenantId, state);
                }
            }
        }
    }

    private static final class Pending {
        Growth growth = Growth.NONE;
        /** The stored totals as last read plus what activations here stored since; null until read. */
        Growth stored;
        long storedReadAt;
        /** Taken out of the map (nothing in flight); a reservation that finds it so starts over with a new entry. */
        boolean removed;
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();
    private final long totalsMaxAgeNanos;
    private final LongSupplier nanoClock;

    /** @param totalsMaxAge how long a tenant with documents in flight keeps the stored totals it read */
    QuotaReservations(Duration totalsMaxAge, LongSupplier nanoClock) {
        this.totalsMaxAgeNanos = totalsMaxAge.toNanos();
        this.nanoClock = nanoClock;
    }

    QuotaReservations() {
        this(Duration.ofSeconds(2), System::nanoTime);
    }

    /**
     * Checks the tenant's stored totals plus what the documents in flight hold plus this document's growth against its
     * quotas, and holds this one's growth until the reservation is closed; throws 429 {@code quota-exceeded} when a quota
     * would be passed. A tenant without a document, chunk or byte quota gets a reservation holding nothing.
     *
     * @param stored the tenant's stored totals, read under the tenant's lock
     */
    Reservation reserve(String tenantId, Quotas quotas, Supplier<DocumentRegistry.CorpusStats> stored, Growth growth) {
        if (quotas.maxDocuments() == 0 && quotas.maxChunks() == 0 && quotas.maxBytes() == 0) {
            return new Reservation(tenantId, null, Growth.NONE, Growth.NONE);
        }
        while (true) {
            Pending state = pending.computeIfAbsent(tenantId, id -> new Pending());
            synchronized (state) {
                if (state.removed) {
                    continue; // released meanwhile and taken out of the map: start over with the current entry
                }
                try {
                    boolean fresh = state.stored == null || nanoClock.getAsLong() - state.storedReadAt > totalsMaxAgeNanos;
                    if (fresh) {
                        read(state, stored);
                    }
                    String refusal = exceeded(state.stored.plus(state.growth).plus(growth), quotas);
                    if (refusal != null && !fresh) {
                        read(state, stored); // refuse only on totals read now
                        refusal = exceeded(state.stored.plus(state.growth).plus(growth), quotas);
                    }
                    if (refusal != null) {
                        throw new IngestException(429, "quota-exceeded", refusal);
                    }
                } catch (RuntimeException e) {
                    forgetIfIdle(tenantId, state);
                    throw e;
                }
                state.growth = state.growth.plus(growth.held());
                return new Reservation(tenantId, state, growth.held(), growth);
            }
        }
    }

    /** Tenants with a document in flight (tests: an idle tenant holds nothing). */
    int tenantsInFlight() {
        return pending.size();
    }

    /** Under the entry's lock: a tenant with nothing in flight holds no entry (thousands of tenants, density). */
    private void forgetIfIdle(String tenantId, Pending state) {
        if (state.growth.equals(Growth.NONE)) {
            state.removed = true;
            pending.remove(tenantId, state);
        }
    }

    private void read(Pending state, Supplier<DocumentRegistry.CorpusStats> stored) {
        DocumentRegistry.CorpusStats stats = stored.get();
        state.stored = new Growth(stats.documents(), stats.chunks(), stats.bytes());
        state.storedReadAt = nanoClock.getAsLong();
    }

    /** Why the totals would pass a quota, or null. */
    private static String exceeded(Growth wouldBe, Quotas quotas) {
        String documents = exceeded("documents", wouldBe.documents(), quotas.maxDocuments());
        String chunks = exceeded("chunks", wouldBe.chunks(), quotas.maxChunks());
        String bytes = exceeded("bytes", wouldBe.bytes(), quotas.maxBytes());
        return documents != null ? documents : chunks != null ? chunks : bytes;
    }

    private static String exceeded(String what, long wouldBe, long limit) {
        return limit > 0 && wouldBe > limit ? "this ingest would bring the tenant to " + wouldBe + " " + what + "; its quota is " + limit : null;
    }
}
