package io.corpora.server.cluster;

import io.corpora.controlplane.ServerLeases;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.concurrent.ManagedScheduledExecutorService;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * This server's lease in the control plane: registered at boot (ending its predecessors' under the same name), renewed
 * every third of {@code corpora.lease.ttlSeconds} (default 15), released at a clean shutdown. Each renewal is followed
 * by a sweep that adopts the work of servers whose lease expired, so a dead server's jobs are closed within about
 * ttl + ttl/3 while the cluster keeps running, not only when that server boots again. A clean stop releases it, handing
 * that work over at once.
 */
@ApplicationScoped
public class LeaseKeeper {

    private static final Logger LOG = Logger.getLogger(LeaseKeeper.class.getName());

    @Inject
    ServerIdentity identity;

    @Inject
    ServerLeases leases;

    @Resource
    ManagedScheduledExecutorService scheduler;

    @Inject
    @ConfigProperty(name = "corpora.lease.ttlSeconds", defaultValue = "15")
    int ttlSeconds;

    private ScheduledFuture<?> beat;
    private volatile boolean registered;
    /** Held by a renewal and its sweep while they run, so that the stop can wait for them. */
    private final Object beating = new Object();
    /** Set by the stop, under {@code beating}: no renewal runs after it. */
    private boolean stopped;
    /** Cleared when the server begins to stop: it renews until it hands over, but adopts nothing more. */
    private volatile boolean sweeping = true;

    /** Registers the lease and ends the predecessors'; call before recovering orphans at boot. */
    public synchronized void register() {
        long now = System.currentTimeMillis();
        leases.register(identity.id(), identity.name(), now, ttl().toMillis());
        int ended = leases.expirePredecessors(identity.name(), identity.id());
        registered = true;
        LOG.info("server " + identity.id() + " holds its lease (ttl " + ttlSeconds + " s)" + (ended > 0 ? "; ended " + ended + " predecessor lease(s)" : ""));
    }

    /** Renews every ttl/3 and runs {@code sweep} after each renewal. */
    public synchronized void start(Runnable sweep) {
        long period = Math.max(1000, ttl().toMillis() / 3);
        beat = scheduler.scheduleWithFixedDelay(() -> {
            synchronized (beating) {
                if (stopped) {
                    return; // the persistence unit may be closing
                }
                try {
                    renew();
                    if (sweeping) {
                        sweep.run();
                    }
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "lease renewal or sweep failed; retried in " + period + " ms", e);
                }
            }
        }, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * The server begins to stop: from now on it only renews (the work it still runs keeps its lease), and adopts nothing;
     * returns once a sweep in progress has ended.
     */
    public void stopSweeping() {
        sweeping = false;
        synchronized (beating) {
            // a renewal or sweep in progress has ended
        }
    }

    private void renew() {
        long now = System.currentTimeMillis();
        if (!leases.renew(identity.id(), now, ttl().toMillis())) {
            // Purged after it expired (a long pause): our unfinished work may be adopted; take a fresh lease and go on.
            LOG.severe("server " + identity.id() + " lost its lease (expired and purged); work it owned may have been closed by another server");
            leases.register(identity.id(), identity.name(), now, ttl().toMillis());
        }
        // Leases dead for ten times their ttl only clutter status: their work is orphaned either way.
        leases.purgeExpired(now - 10 * ttl().toMillis());
    }

    public Duration ttl() {
        return Duration.ofSeconds(Math.max(3, ttlSeconds));
    }

    public String self() {
        return identity.id();
    }

    /**
     * Stops renewing; with {@code handOver}, releases the lease so that the unfinished work this server owns is adopted
     * at once, otherwise it is adopted when the lease expires, a ttl later. Called when the application begins to stop
     * ({@code IngestRecoveryStartup}): Liberty closes the persistence unit before it destroys the beans, so a release left
     * to {@code @PreDestroy} failed and the lease only expired.
     */
    public synchronized void stop(boolean handOver) {
        if (beat != null) {
            beat.cancel(false);
            beat = null;
        }
        synchronized (beating) { // a renewal in progress ends first, and none runs after this
            stopped = true;
            if (!registered) {
                return;
            }
            registered = false;
            if (!handOver) {
                LOG.info("server " + identity.id() + " keeps its lease until it expires (" + ttlSeconds + " s): work of its own still runs");
                return;
            }
            try {
                leases.release(identity.id());
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "could not release the lease of " + identity.id() + "; it expires in " + ttlSeconds + " s", e);
            }
        }
    }

    @PreDestroy
    void destroyed() {
        stop(true); // nothing if the stop already ran
    }
}
