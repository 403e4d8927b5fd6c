package io.corpora.server.dataplane;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.ingest.ReembedMigration;
import io.corpora.server.tenants.TenantUpdateGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Refuses a tenant change that would change the embedder fingerprint of a non-empty corpus: its vectors could no
 * longer be compared with new queries. Such a change needs a re-embed migration ({@link ReembedMigration#route}), never
 * an in-place switch; and while a migration runs, the tenant's embedder cannot be changed at all.
 */
@ApplicationScoped
public class EmbedderChangeGuard implements TenantUpdateGuard {

    @Inject
    DataPlane dataPlane;

    @Override
    public void check(Tenant current, TenantDefinition next) {
        if (current.definition().embedder().equals(next.embedder())) {
            return;
        }
        dataPlane.jobs().unfinishedReembed(current.id()).ifPresent(job -> {
            throw new IllegalStateException("tenant '" + current.id() + "' is being re-embedded to " + job.reembed().toEmbedder()
                    + " by job " + job.id() + "; its embedder cannot change until that migration ends");
        });
        if (current.activeEmbedder() == null) {
            return;
        }
        String nextFingerprint = dataPlane.runtimes().runtime(next).embedderId();
        if (nextFingerprint.equals(current.activeEmbedder())) {
            return; // e.g. only a worker count changed: same model, same vectors
        }
        long chunks = dataPlane.registry().stats(current.id()).chunks();
        if (chunks > 0) {
            throw new IllegalStateException("tenant '" + current.id() + "' holds " + chunks + " chunks embedded by "
                    + current.activeEmbedder() + "; the new embedder configuration has fingerprint " + nextFingerprint
                    + ", and vectors of different embedders are never mixed. Re-embed the corpus with a migration instead: "
                    + ReembedMigration.route(current.id()));
        }
    }
}
