package io.corpora.ingest;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.Quotas;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
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
        private final Growth growth;
        private boolean released;

        private Reservation(String tenantId, Pending state, Growth growth) {
            this.tenantId = tenantId;
            this.state = state;
            this.growth = growth;
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
        /** Taken out of the map (nothing in flight); a reservation that finds it so starts over with a new entry. */
        boolean removed;
    }

    private final Map<String, Pending> pending = new ConcurrentHashMap<>();

    /**
     * Checks the tenant's stored totals plus what the documents in flight hold plus this document's growth against its
     * quotas, and holds this one's growth until the reservation is closed; throws 429 {@code quota-exceeded} when a quota
     * would be passed. A tenant without a document, chunk or byte quota gets a reservation holding nothing.
     *
     * @param stored the tenant's stored totals, read under the tenant's lock
     */
    Reservation reserve(String tenantId, Quotas quotas, Supplier<DocumentRegistry.CorpusStats> stored, Growth growth) {
        if (quotas.maxDocuments() == 0 && quotas.maxChunks() == 0 && quotas.maxBytes() == 0) {
            return new Reservation(tenantId, null, Growth.NONE);
        }
        while (true) {
            Pending state = pending.computeIfAbsent(tenantId, id -> new Pending());
            synchronized (state) {
                if (state.removed) {
                    continue; // released meanwhile and taken out of the map: start over with the current entry
                }
                try {
                    DocumentRegistry.CorpusStats stats = stored.get();
                    Growth wouldBe = new Growth(stats.documents(), stats.chunks(), stats.bytes()).plus(state.growth).plus(growth);
                    exceeds("documents", wouldBe.documents(), quotas.maxDocuments());
                    exceeds("chunks", wouldBe.chunks(), quotas.maxChunks());
                    exceeds("bytes", wouldBe.bytes(), quotas.maxBytes());
                } catch (RuntimeException e) {
                    forgetIfIdle(tenantId, state);
                    throw e;
                }
                state.growth = state.growth.plus(growth.held());
                return new Reservation(tenantId, state, growth.held());
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

    private static void exceeds(String what, long wouldBe, long limit) {
        if (limit > 0 && wouldBe > limit) {
            throw new IngestException(429, "quota-exceeded", "this ingest would bring the tenant to " + wouldBe + " " + what
                    + "; its quota is " + limit);
        }
    }
}
