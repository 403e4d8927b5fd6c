package io.corpora.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The tenants whose resources (store namespaces, runtime) are open: at most {@code max} of them, each closed when idle
 * longer than {@code idleTimeout} or when it is the least recently used one beyond the bound. Resources are proportional
 * to this set, not to the number of provisioned tenants.
 *
 * <p>Every use of a tenant's resources holds a {@link Lease}. A tenant is closed only with no lease out: one chosen while
 * in use is closed by its last lease's release. While a tenant closes, a new lease on it waits for the close to end
 * (then reopens); leases on other tenants never wait, and no lock spanning tenants is held while one closes — the
 * closer runs on the one tenant's entry.
 *
 * <p>A tenant evicted beyond the bound is closed on the {@code evictions} executor, not by the lease that pushed the set
 * over it: a close can take long (a Lucene index waits for a running HNSW merge, which 9.x cannot abort), and another
 * tenant's call must not wait for it. A tenant closing no longer counts against the bound, though it holds its
 * resources until its close ends.
 */
public final class TenantWorkingSet {

    private static final Logger LOG = Logger.getLogger(TenantWorkingSet.class.getName());

    /** A use of a tenant's resources; release exactly once (try-with-resources). */
    public interface Lease extends AutoCloseable {
        @Override
        void close();
    }

    private final int max;
    private final long idleNanos;
    private final LongSupplier nanoTime;
    private final Consumer<String> closer;
    private final Executor evictions;
    private final Map<String, Entry> open = new ConcurrentHashMap<>();
    /** Entries closing, still in {@link #open} until their close ends: not counted against the bound. */
    private final AtomicInteger closing = new AtomicInteger();

    /** One open tenant. Guarded by its own monitor. */
    private static final class Entry {
        final String tenant;
        int leases;
        long lastUsed;
        boolean closeRequested;
        boolean closing;
        boolean retired;

        Entry(String tenant) {
            this.tenant = tenant;
        }
    }

    /** Evicted tenants are closed by the lease that evicts them (tests). */
    public TenantWorkingSet(int max, Duration idleTimeout, LongSupplier nanoTime, Consumer<String> closer) {
        this(max, idleTimeout, nanoTime, closer, Runnable::run);
    }

    /**
     * @param closer    releases one tenant's resources; called with no lease out on it and none granted until it returns
     * @param evictions runs the closer of a tenant evicted beyond the bound (when it rejects, the evicting caller does)
     */
    public TenantWorkingSet(int max, Duration idleTimeout, LongSupplier nanoTime, Consumer<String> closer, Executor evictions) {
        if (max < 1) {
            throw new IllegalArgumentException("the working set must hold at least one tenant, got " + max);
        }
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("the idle timeout must be positive, got " + idleTimeout);
        }
        this.max = max;
        this.idleNanos = idleTimeout.toNanos();
        this.nanoTime = nanoTime;
        this.closer = closer;
        this.evictions = java.util.Objects.requireNonNull(evictions, "evictions");
    }

    public int max() {
        return max;
    }

    /** How many tenants are open now, those still closing included. */
    public int size() {
        return open.size();
    }

    public boolean isOpen(String tenant) {
        return open.containsKey(tenant);
    }

    /** Marks the tenant used and holds it open until the lease is released; waits only while this tenant is closing. */
    public Lease lease(String tenant) {
        Entry entry;
        while (true) {
            entry = open.computeIfAbsent(tenant, Entry::new);
            synchronized (entry) {
                while (entry.closing && !entry.retired) {
                    try {
                        entry.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while tenant '" + tenant + "' was being closed", e);
                    }
                }
                if (!entry.retired) {
                    entry.leases++;
                    entry.lastUsed = nanoTime.getAsLong();
                    entry.closeRequested = false; // in use again: a pending LRU choice is stale
                    break;
                }
            }
        }
        if (overBound()) {
            evictLeastRecentlyUsed();
        }
        return leaseOf(entry, true);
    }

    /**
     * Runs {@code action} holding the tenant open, but only if it is in the set and not closing; never adds it, never
     * waits, and does not count as a use (the least recently used order is unchanged). For bookkeeping that must stay
     * within the set, such as a tenant's metric series: what the action registers is seen by the closer. False when the
     * tenant is not open (the action did not run).
     */
    public boolean runIfOpen(String tenant, Runnable action) {
        Entry entry = open.get(tenant);
        if (entry == null) {
            return false;
        }
        synchronized (entry) {
            if (entry.closing || entry.retired) {
                return false;
            }
            entry.leases++;
        }
        try (Lease held = leaseOf(entry, false)) {
            action.run();
        }
        return true;
    }

    private Lease leaseOf(Entry entry, boolean use) {
        return new Lease() {
            private boolean released;

            @Override
            public void close() {
                if (released) {
                    return;
                }
                released = true;
                release(entry, use);
            }
        };
    }

    /** Closes a tenant now, or at its last lease's release if in use (e.g. it became INACTIVE). */
    public void close(String tenant) {
        Entry entry = open.get(tenant);
        if (entry != null) {
            requestClose(entry);
        }
    }

    /**
     * Runs {@code action} on the tenant alone: waits for its leases to end, grants none until the action returns (they
     * then reopen it), and leaves it closed. For changes that move a tenant's data (offload, restore). The action must
     * release what the tenant holds itself; the closer is not called.
     */
    public void runExclusive(String tenant, Runnable action) {
        Entry entry;
        while (true) {
            entry = open.computeIfAbsent(tenant, Entry::new);
            synchronized (entry) {
                while ((entry.closing || entry.leases > 0) && !entry.retired) {
                    try {
                        entry.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IllegalStateException("interrupted while waiting for the calls on tenant '" + tenant + "' to end", e);
                    }
                }
                if (!entry.retired) {
                    markClosing(entry);
                    break;
                }
            }
        }
        try {
            action.run();
        } finally {
            retire(entry);
        }
    }

    /** Closes every tenant idle longer than the timeout; returns how many. Call periodically. */
    public int closeIdle() {
        long now = nanoTime.getAsLong();
        int closed = 0;
        for (Entry entry : List.copyOf(open.values())) {
            boolean idle;
            synchronized (entry) {
                idle = entry.leases == 0 && !entry.closing && now - entry.lastUsed > idleNanos;
            }
            if (idle && requestClose(entry)) {
                closed++;
            }
        }
        return closed;
    }

    /** Closes every open tenant (server shutdown); tenants in use close when released. */
    public void closeAll() {
        List.copyOf(open.values()).forEach(this::requestClose);
    }

    private boolean overBound() {
        return open.size() - closing.get() > max;
    }

    private void evictLeastRecentlyUsed() {
        while (overBound()) {
            // a scan of the bounded set: O(max) per eviction, no ordered structure to lock on every lease
            List<Entry> idle = new ArrayList<>();
            for (Entry entry : open.values()) {
                synchronized (entry) {
                    if (entry.leases == 0 && !entry.closing && !entry.closeRequested) {
                        idle.add(entry);
                    }
                }
            }
            Entry oldest = null;
            for (Entry entry : idle) {
                if (oldest == null || entry.lastUsed - oldest.lastUsed < 0) {
                    oldest = entry;
                }
            }
            if (oldest == null) {
                return; // every open tenant is in use: the bound is exceeded until some are released
            }
            requestClose(oldest, evictions);
        }
    }

    /** Closes the entry now when unused (returns true), else marks it for its last release. */
    private boolean requestClose(Entry entry) {
        return requestClose(entry, Runnable::run);
    }

    /** Closes the entry on {@code closeOn} when unused (returns true), else marks it for its last release. */
    private boolean requestClose(Entry entry, Executor closeOn) {
        synchronized (entry) {
            if (entry.closing || entry.retired) {
                return false;
            }
            if (entry.leases > 0) {
                entry.closeRequested = true;
                return false;
            }
            markClosing(entry);
        }
        try {
            closeOn.execute(() -> runCloser(entry));
        } catch (RejectedExecutionException shutDown) {
            runCloser(entry);
        }
        return true;
    }

    private void release(Entry entry, boolean use) {
        boolean closeNow;
        synchronized (entry) {
            entry.leases--;
            if (use) {
                entry.lastUsed = nanoTime.getAsLong();
            }
            closeNow = entry.leases == 0 && entry.closeRequested && !entry.closing;
            if (closeNow) {
                markClosing(entry);
            } else if (entry.leases == 0) {
                entry.notifyAll(); // a runExclusive may be waiting for the last lease
            }
        }
        if (closeNow) {
            runCloser(entry);
        } else if (overBound()) {
            evictLeastRecentlyUsed(); // the bound was exceeded while every tenant was in use
        }
    }

    /** Runs the closer outside every lock but this tenant's closing flag, then retires the entry and wakes waiters. */
    private void runCloser(Entry entry) {
        try {
            closer.accept(entry.tenant);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "closing the resources of tenant '" + entry.tenant + "' failed; they reopen on next use", e);
        } finally {
            retire(entry);
        }
    }

    /** Under the entry's monitor. */
    private void markClosing(Entry entry) {
        entry.closing = true;
        closing.incrementAndGet();
    }

    /** Every closing entry ends here, once. */
    private void retire(Entry entry) {
        open.remove(entry.tenant, entry);
        closing.decrementAndGet();
        synchronized (entry) {
            entry.retired = true;
            entry.notifyAll();
        }
    }
}
