package io.corpora.ingest;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Who may write a tenant's corpus right now. Ingests, deletes and rebuilds enter as writers, any number at a time. A
 * re-embed migration {@link #claim claims} the tenant: it waits for the writers in flight, and from then until it
 * releases the claim every writer is refused at once (409 {@code migration-in-progress} with Retry-After) rather than
 * queued, so the corpus the migration copies cannot change under it. The gate is per server process.
 */
public final class TenantWriteGate {

    /** What a refused writer is told to wait before retrying. */
    public static final long RETRY_AFTER_SECONDS = 30;

    private final Map<String, State> states = new ConcurrentHashMap<>();

    private static final class State {
        int writers;
        boolean claimed;
        /** What holds the claim ("a store relocation"), for the refusal's text. */
        String migration;
    }

    /** A migration's exclusive hold on one tenant's writes; released exactly once. */
    public final class Claim {
        private final String tenantId;
        private boolean released;

        private Claim(String tenantId) {
            this.tenantId = tenantId;
        }

        public String tenantId() {
            return tenantId;
        }

        public void release() {
            State state = state(tenantId);
            synchronized (state) {
                if (!released) {
                    released = true;
                    state.claimed = false;
                }
            }
        }
    }

    /** Runs a write of the tenant's corpus; refused with 409 while a migration holds the tenant. */
    public <T> T write(String tenantId, Supplier<T> work) {
        State state = state(tenantId);
        synchronized (state) {
            refuseIfClaimed(tenantId, state);
            state.writers++;
        }
        try {
            return work.get();
        } finally {
            synchronized (state) {
                state.writers--;
                state.notifyAll();
            }
        }
    }

    /** Refuses early (409) while a migration holds the tenant, before a request does any work. */
    public void requireOpen(String tenantId) {
        State state = state(tenantId);
        synchronized (state) {
            refuseIfClaimed(tenantId, state);
        }
    }

    public boolean claimed(String tenantId) {
        State state = state(tenantId);
        synchronized (state) {
            return state.claimed;
        }
    }

    /**
     * Claims the tenant for a migration: new writers are refused from now on, and the writers in flight get up to
     * {@code wait} to finish. 409 if another migration holds it, or if the writers did not finish in time (the claim is
     * then given up). {@code migration} names it in the refusals ("a store relocation").
     */
    public Claim claim(String tenantId, String migration, Duration wait) {
        State state = state(tenantId);
        synchronized (state) {
            refuseIfClaimed(tenantId, state);
            state.claimed = true;
            state.migration = migration;
            long deadline = System.nanoTime() + wait.toNanos();
            try {
                while (state.writers > 0) {
                    long remaining = deadline - System.nanoTime();
                    if (remaining <= 0) {
                        state.claimed = false;
                        throw new IngestException(409, "writes-in-progress", "tenant '" + tenantId + "' has " + state.writers
                                + " ingests, deletes or rebuilds in flight that did not finish within " + wait.toSeconds()
                                + " s; retry the migration when they are done").retryAfter(RETRY_AFTER_SECONDS);
                    }
                    state.wait(Math.max(1, remaining / 1_000_000));
                }
            } catch (InterruptedException e) {
                state.claimed = false;
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for tenant '" + tenantId + "'s writes to finish", e);
            }
            return new Claim(tenantId);
        }
    }

    private static void refuseIfClaimed(String tenantId, State state) {
        if (state.claimed) {
            throw new IngestException(409, "migration-in-progress", state.migration + " of tenant '" + tenantId
                    + "' is in progress; ingests, deletes and rebuilds are refused until it ends (its job is listed under GET /api/v1/tenants/"
                    + tenantId + "/jobs)").retryAfter(RETRY_AFTER_SECONDS);
        }
    }

    private State state(String tenantId) {
        return states.computeIfAbsent(tenantId, id -> new State());
    }
}
