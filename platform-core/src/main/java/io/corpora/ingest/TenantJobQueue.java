package io.corpora.ingest;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.Executor;

/**
 * Runs each tenant's background jobs at most {@code perTenant} at a time on this server, the others in the order they
 * were submitted as earlier ones end; tenants never wait for each other. Without it every submitted job started at
 * once, and a burst of uploads (many clients, each sending a batch) put more of a tenant's documents in flight than
 * its plugin guards admit: the surplus failed with 503 and the open breaker then refused the tenant's retrievals too.
 * A queued job stays {@code QUEUED} until it starts; queued jobs live in memory, so a crash leaves them unfinished,
 * which the boot's recovery marks failed like the running ones.
 */
public final class TenantJobQueue {

    /** Three jobs of two documents each keep a tenant within its embedder's bulkhead (8 calls and 16 waiting). */
    public static final int DEFAULT_PER_TENANT = 3;

    private final Executor executor;
    private final int perTenant;
    private final Map<String, Lane> lanes = new HashMap<>(); // guarded by this

    /** One tenant's jobs: how many run, and those waiting for a slot. */
    private static final class Lane {
        int running;
        final Queue<Runnable> waiting = new ArrayDeque<>();
    }

    public TenantJobQueue(Executor executor, int perTenant) {
        if (perTenant < 1) {
            throw new IllegalArgumentException("jobs per tenant must be at least 1, got " + perTenant);
        }
        this.executor = Objects.requireNonNull(executor, "executor");
        this.perTenant = perTenant;
    }

    /**
     * Starts the job now if the tenant has a free slot, else queues it behind the tenant's earlier ones.
     *
     * @throws java.util.concurrent.RejectedExecutionException if the executor refuses a job started now (nothing is queued then)
     */
    public void submit(String tenant, Runnable job) {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(job, "job");
        synchronized (this) {
            Lane lane = lanes.computeIfAbsent(tenant, t -> new Lane());
            if (lane.running >= perTenant) {
                lane.waiting.add(job);
                return;
            }
            lane.running++;
        }
        start(tenant, job);
    }

    /** Jobs of the tenant waiting for a slot (for tests and diagnostics). */
    public synchronized int waiting(String tenant) {
        Lane lane = lanes.get(tenant);
        return lane == null ? 0 : lane.waiting.size();
    }

    private void start(String tenant, Runnable job) {
        try {
            executor.execute(() -> {
                try {
                    job.run();
                } finally {
                    next(tenant);
                }
            });
        } catch (RuntimeException refused) {
            next(tenant); // the slot was taken for this job: hand it on (or give it back) before reporting
            throw refused;
        }
    }

    /** A job of the tenant ended (or was refused): its slot goes to the next waiting job, or is freed. */
    private void next(String tenant) {
        Runnable following;
        synchronized (this) {
            Lane lane = lanes.get(tenant);
            following = lane.waiting.poll();
            if (following == null && --lane.running == 0) {
                lanes.remove(tenant);
            }
        }
        if (following != null) {
            try {
                start(tenant, following);
            } catch (RuntimeException refused) {
                // The executor is shutting down: the job stays QUEUED in the control plane and recovery ends it.
            }
        }
    }
}
