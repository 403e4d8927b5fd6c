package io.corpora.controlplane;

import io.corpora.spi.Namespace;
import java.util.List;
import java.util.Optional;

/** Background jobs: ingests, index rebuilds, re-embed migrations and store relocations (JPA-backed in the server). */
public interface JobRepository {

    /** A QUEUED ingest job writing to one namespace. */
    IngestJob create(Namespace namespace, int total);

    /**
     * A QUEUED rebuild job of one namespace, unless one is unfinished on any server sharing this control plane: the check
     * and the insert are one step, so of two servers starting at once one creates the job and the other is refused.
     *
     * @throws io.corpora.ingest.IngestException 409 {@code rebuild-in-progress} naming the unfinished job, or 409
     *         {@code migration-in-progress} while the tenant is re-embedded or relocated (nothing created)
     */
    IngestJob createRebuild(Namespace namespace, int total);

    /** A QUEUED re-embed migration job, persisting its target so a restart can resume or roll it back. */
    IngestJob createReembed(String tenant, int total, IngestJob.Reembed target);

    /** A QUEUED store relocation job, persisting both stores so a restart can resume, finish or roll it back. */
    IngestJob createRelocation(String tenant, int total, IngestJob.Relocate relocate);

    Optional<IngestJob> find(String tenant, String jobId);

    /** Newest first. */
    List<IngestJob> list(String tenant, int limit);

    void markRunning(String jobId);

    /** Appends an outcome and bumps the matching counter. */
    void recordOutcome(String jobId, IngestJob.Outcome outcome);

    /** Appends outcomes in their order and bumps the matching counters, in one transaction (a job's outcomes recorded in groups). */
    void recordOutcomes(String jobId, List<IngestJob.Outcome> outcomes);

    /** Sets the final status from the counters. */
    IngestJob finish(String jobId);

    /** Ends the job FAILED with the reason, whatever its counters say (e.g. a migration that rolled back). */
    IngestJob fail(String jobId, String error);

    /**
     * Starts an interrupted job over: outcomes and counters are cleared, the total replaced, the status RUNNING. A
     * resumed migration re-walks every document and reports those it had already finished as skipped.
     */
    IngestJob restart(String jobId, int total);

    /** Jobs left QUEUED or RUNNING by a crash; the server marks them failed (or resumes them) at boot. */
    List<IngestJob> unfinished();

    /**
     * The tenant's unfinished job that moves its whole corpus (a re-embed migration or a store relocation), if any: at
     * most one runs per tenant, and the tenant's writes are refused meanwhile.
     */
    default Optional<IngestJob> unfinishedMigration(String tenant) {
        return unfinished().stream().filter(j -> j.kind().migratesCorpus() && j.tenant().equals(tenant)).findFirst();
    }

    /** The tenant's re-embed migration that has not finished, if any (at most one runs per tenant). */
    default Optional<IngestJob> unfinishedReembed(String tenant) {
        return unfinished().stream().filter(j -> j.kind() == JobKind.REEMBED && j.tenant().equals(tenant)).findFirst();
    }
}
