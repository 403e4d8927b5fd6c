package io.corpora.ingest;

import io.corpora.controlplane.IngestJob;
import io.corpora.spi.Namespace;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * At most one rebuild per namespace on this server, queued or running. A second rebuild of the same namespace would
 * re-push the same documents beside the first and fail them as concurrent writes (409 outcomes), repairing nothing
 * the first does not; it is refused instead, naming the job to follow. Servers do not share this: behind a load
 * balancer two servers can each run one rebuild of a namespace, whose outcomes then conflict as before.
 */
public final class RebuildsInFlight {

    private final Map<Namespace, String> jobs = new HashMap<>(); // guarded by this

    /**
     * Records the namespace's rebuild job, made by {@code createJob}, unless one is in flight; every accepted rebuild
     * must be {@linkplain #ended ended}.
     *
     * @throws IngestException 409 {@code rebuild-in-progress} naming the job in flight (nothing is created)
     */
    public synchronized IngestJob begin(Namespace namespace, Supplier<IngestJob> createJob) {
        Objects.requireNonNull(namespace, "namespace");
        String running = jobs.get(namespace);
        if (running != null) {
            throw new IngestException(409, "rebuild-in-progress", "namespace '" + namespace + "' is already being rebuilt by job "
                    + running + "; follow it at GET jobs/" + running);
        }
        IngestJob job = createJob.get(); // rare and short: held under the lock so two callers cannot both pass the check
        jobs.put(namespace, job.id());
        return job;
    }

    /** The namespace's rebuild finished (or never started): another may begin. */
    public synchronized void ended(Namespace namespace) {
        jobs.remove(namespace);
    }

    /** The job rebuilding the namespace on this server, or null (for tests and diagnostics). */
    public synchronized String inFlight(Namespace namespace) {
        return jobs.get(namespace);
    }
}
