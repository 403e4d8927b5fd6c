package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What a restart does about work a crash interrupted: jobs left queued or running are closed (their unreported
 * documents count as failed), and a document version that was being written is failed and its chunks removed. The
 * previous version was never switched off, so it keeps serving; the isolation guard already hid the unfinished one.
 */
public final class IngestRecovery {

    private static final Logger LOG = Logger.getLogger(IngestRecovery.class.getName());
    static final String INTERRUPTED = "interrupted by a server restart before it was stored; the previous version, if any, is unchanged";
    static final String JOB_INTERRUPTED = "interrupted by a server restart before its outcome was recorded; a version not yet "
            + "switched in was discarded and the previous version, if any, still serves";

    private IngestRecovery() {}

    /** What recovery found and did. */
    public record Report(int jobsClosed, int versionsFailed, int chunksRemoved, List<String> problems) {}

    public static Report recover(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, Function<Tenant, VectorStore> stores) {
        List<String> problems = new ArrayList<>();
        int jobsClosed = 0;
        for (IngestJob job : jobs.unfinished()) {
            if (job.kind() != JobKind.INGEST) {
                continue; // re-embed migrations are resumed or rolled back by ReembedMigration.recover
            }
            // Each document the job never reported gets a failed outcome saying why, so the closed job's counts add up.
            for (int unreported = job.total() - job.outcomes().size(); unreported > 0; unreported--) {
                jobs.recordOutcome(job.id(), new IngestJob.Outcome(null, "failed", 0, 0, 503, JOB_INTERRUPTED));
            }
            jobs.finish(job.id());
            jobsClosed++;
        }
        int versionsFailed = 0;
        int chunksRemoved = 0;
        String after = null;
        while (true) {
            List<Tenant> page = tenants.list(after, 100);
            for (Tenant tenant : page) {
                try {
                    VectorStore store = null;
                    for (Namespace namespace : tenant.namespaces()) {
                        for (DocumentRecord document : interrupted(registry, namespace)) {
                            if (store == null) {
                                store = stores.apply(tenant);
                            }
                            chunksRemoved += store.deleteWhere(namespace, MetadataFilter.and(
                                    MetadataFilter.eq(ReservedKeys.DOCUMENT, document.documentId()),
                                    MetadataFilter.eq(ReservedKeys.VERSION, document.pendingVersion())));
                            registry.failVersion(namespace, document.documentId(), document.pendingVersion(), INTERRUPTED);
                            versionsFailed++;
                        }
                        // A crash between an activation and the deletion of the older versions' chunks left them behind.
                        for (String documentId : registry.awaitingCleanup(namespace)) {
                            DocumentRecord document = registry.find(namespace, documentId).orElse(null);
                            if (document == null || document.activeVersion() == 0) {
                                continue;
                            }
                            if (store == null) {
                                store = stores.apply(tenant);
                            }
                            chunksRemoved += SupersededChunks.remove(store, registry, namespace, documentId, document.activeVersion());
                        }
                    }
                } catch (RuntimeException e) {
                    problems.add("tenant " + tenant.id() + ": " + e);
                    LOG.log(Level.WARNING, "recovery of tenant " + tenant.id() + " failed; its unfinished versions stay hidden", e);
                }
            }
            if (page.size() < 100) {
                break;
            }
            after = page.get(page.size() - 1).id();
        }
        return new Report(jobsClosed, versionsFailed, chunksRemoved, problems);
    }

    private static List<DocumentRecord> interrupted(DocumentRegistry registry, Namespace namespace) {
        return registry.all(namespace).stream().filter(d -> d.status() == DocumentStatus.INGESTING && d.pendingVersion() > 0).toList();
    }
}
