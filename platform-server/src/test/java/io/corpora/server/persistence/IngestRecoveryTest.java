package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.ingest.IngestRecovery;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.ReservedKeyStamper;
import io.corpora.spi.store.SearchRequest;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash in the middle of a replace, reproduced as the state it leaves (registry: a begun version never activated,
 * a running job; store: chunks of both versions), then the boot-time recovery on the real JPA repositories (H2).
 */
class IngestRecoveryTest {

    @TempDir
    Path data;

    @Test
    void anInterruptedReplaceIsFailedItsChunksRemovedAndThePreviousVersionStillServes() throws Exception {
        try (ControlPlaneJpa jpa = ControlPlaneJpa.h2(data)) {
            Repositories repositories = Repositories.withTenantAcme(jpa);
            TenantRepository tenants = repositories.tenants();
            DocumentRegistry registry = repositories.registry();
            JobRepository jobs = repositories.jobs();
            Tenant tenant = repositories.tenant();
            Namespace namespace = Namespace.of("acme");
            ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);

            int v1 = registry.beginVersion(namespace, "policy", "policy.md", "text/markdown", Map.of(), 10);
            write(store, namespace, v1, "old text");
            registry.activateVersion(namespace, "policy", v1, "hash-1", 1, "old text",
                    new DocumentDescription("policy.md", "text/markdown", Map.of(), 10));
            IngestJob job = jobs.create(Namespace.of("acme"), 1);
            jobs.markRunning(job.id());
            int v2 = registry.beginVersion(namespace, "policy", "policy.md", "text/markdown", Map.of(), 12);
            write(store, namespace, v2, "new text"); // …and the process dies before activateVersion

            IngestRecovery.Report report = IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> store);

            assertEquals(1, report.jobsClosed());
            assertEquals(1, report.versionsFailed());
            assertEquals(1, report.chunksRemoved());
            assertTrue(report.problems().isEmpty(), report.problems().toString());
            IngestJob closed = jobs.find("acme", job.id()).orElseThrow();
            assertEquals(JobStatus.FAILED, closed.status());
            assertEquals(1, closed.failed(), "the unreported document counts as failed: " + closed);
            assertEquals(100, closed.percent());
            assertTrue(closed.outcomes().get(0).error().contains("server restart"), closed.outcomes().toString());
            assertEquals(503, closed.outcomes().get(0).status(), closed.outcomes().toString());
            assertEquals("job-interrupted", closed.outcomes().get(0).problem(), closed.outcomes().toString());
            DocumentRecord document = registry.find(namespace, "policy").orElseThrow();
            assertEquals(v1, document.activeVersion());
            assertTrue(document.status() == DocumentStatus.ACTIVE || document.status() == DocumentStatus.FAILED, document.toString());
            assertEquals(0, document.pendingVersion(), document.toString());
            assertEquals(10, document.bytes(), "the served version's size, not the interrupted one's: " + document);
            List<Chunk> left = store.documentChunks(namespace, "policy");
            assertEquals(List.of("old text"), left.stream().map(Chunk::text).toList());
            IsolationGuard guard = new IsolationGuard(store, namespace, 4, ids -> registry.activeVersions(namespace, ids));
            assertEquals("old text", guard.search(namespace, SearchRequest.vector(new float[] {1, 0}, 5, MetadataFilter.all(), null, null))
                    .get(0).chunk().text());

            IngestRecovery.Report again = IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> store);
            assertEquals(new IngestRecovery.Report(0, 0, 0, List.of()), again, "recovery is idempotent");
            assertEquals(tenant.id(), document.namespace().tenant());
        }
    }

    @Test
    void chunksOfAVersionSupersededJustBeforeACrashAreRemovedAtRestart() throws Exception {
        try (ControlPlaneJpa jpa = ControlPlaneJpa.h2(data)) {
            Repositories repositories = Repositories.withTenantAcme(jpa);
            TenantRepository tenants = repositories.tenants();
            DocumentRegistry registry = repositories.registry();
            JobRepository jobs = repositories.jobs();
            Namespace namespace = Namespace.of("acme");
            ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
            DocumentDescription description = new DocumentDescription("policy.md", "text/markdown", Map.of(), 10);

            int v1 = registry.beginVersion(namespace, "policy", "policy.md", "text/markdown", Map.of(), 10);
            write(store, namespace, v1, "old text");
            registry.activateVersion(namespace, "policy", v1, "hash-1", 1, "old text", description);
            assertEquals(List.of(), registry.awaitingCleanup(namespace), "a first version supersedes nothing");
            int v2 = registry.beginVersion(namespace, "policy", "policy.md", "text/markdown", Map.of(), 10);
            writeAs(store, namespace, "policy:1", v2, "new text");
            registry.activateVersion(namespace, "policy", v2, "hash-2", 1, "new text", description);
            // …and the process dies before v1's chunk is deleted.
            assertEquals(List.of("policy"), registry.awaitingCleanup(namespace));

            IngestRecovery.Report report = IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> store);

            assertEquals(1, report.chunksRemoved());
            assertEquals(List.of("new text"), store.documentChunks(namespace, "policy").stream().map(Chunk::text).toList());
            assertEquals(List.of(), registry.awaitingCleanup(namespace));
            assertEquals(new IngestRecovery.Report(0, 0, 0, List.of()), IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> store),
                    "recovery is idempotent");
        }
    }

    /** The JPA repositories on H2 with tenant {@code acme} created. */
    private record Repositories(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, Tenant tenant) {
        static Repositories withTenantAcme(ControlPlaneJpa jpa) {
            Clock clock = Clock.systemUTC();
            TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
            Tenant tenant = tenants.create(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                    new PluginChoice("onnx", Map.of()), null, null, null, null));
            return new Repositories(tenants, jpa.transactional(DocumentRegistry.class, jpa.documents(clock)),
                    jpa.transactional(JobRepository.class, jpa.jobs(clock)), tenant);
        }
    }

    private static void writeAs(ReferenceVectorStore store, Namespace namespace, String chunkId, int version, String text) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk(chunkId, "policy", 0, text, List.of(), Map.of()), namespace, "policy", version);
        store.upsert(namespace, List.of(new EmbeddedChunk(chunk, new float[] {1, 0})));
    }

    private static void write(ReferenceVectorStore store, Namespace namespace, int version, String text) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk("policy:0", "policy", 0, text, List.of(), Map.of()), namespace, "policy", version);
        store.upsert(namespace, List.of(new EmbeddedChunk(chunk, new float[] {1, 0})));
    }
}
