package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentRegistry.CorpusStats;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.spi.Namespace;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A tenant's usage row (documents, chunks and bytes of its active versions) is what the quota check and the fleet view
 * read instead of aggregating documents, so it must always equal that aggregate: after every kind of change, when the
 * change is refused, under concurrent writers, and when migration V14 counts documents stored before it.
 */
class TenantUsageTest {

    private static final Namespace ACME = Namespace.of("acme");

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private final Clock clock = Clock.systemUTC();
    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry documents;

    private void open(String database) throws Exception {
        jpa = controlPlanes.open(database);
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        documents = jpa.transactional(DocumentRegistry.class, jpa.documents(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        tenants.create(ControlPlaneRepositoriesTest.tenant("beta"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void usageFollowsEveryChangeOfActiveVersions(String database) throws Exception {
        open(database);
        assertUsage("acme", 0, 0, 0);

        store(documents, ACME, "a", 3, 100);
        assertUsage("acme", 1, 3, 100);

        int pending = documents.beginVersion(ACME, "b", "b.md", "text/markdown", Map.of(), 70);
        assertUsage("acme", 1, 3, 100); // a version being written counts for nothing yet
        documents.failVersion(ACME, "b", pending, "embedder failed");
        assertUsage("acme", 1, 3, 100);

        store(documents, ACME, "a", 5, 40); // a replace counts the difference
        assertUsage("acme", 1, 5, 40);
        store(documents, Namespace.of("acme", "eu"), "c", 2, 10); // every partition counts for the tenant
        assertUsage("acme", 2, 7, 50);

        tenants.setActiveEmbedder("acme", "model-1");
        int refused = documents.beginVersion(ACME, "a", "a.md", "text/markdown", Map.of(), 999);
        assertThrows(WriteRefusedException.class, () -> documents.activateVersion(ACME, "a", refused, "h", 9, "text",
                new DocumentDescription("a.md", "text/markdown", Map.of(), 999), "model-2", null));
        assertUsage("acme", 2, 7, 50); // a refused activation changes nothing

        assertTrue(documents.delete(ACME, "a", () -> {}));
        assertUsage("acme", 1, 2, 10);
        assertTrue(documents.delete(ACME, "b", () -> {})); // never active: nothing to take off
        assertUsage("acme", 1, 2, 10);
        assertFalse(documents.delete(ACME, "nothing", () -> {}));
        assertUsage("beta", 0, 0, 0);

        store(documents, Namespace.of("beta"), "x", 4, 8);
        assertEquals(1, documents.deleteTenant("acme"));
        assertUsage("acme", 0, 0, 0);
        assertUsage("beta", 1, 4, 8);

        tenants.delete("acme"); // its usage row goes with it
        assertEquals(0L, ControlPlaneJpa.inTx(jpa.entityManager(), () -> ((Number) jpa.entityManager()
                .createNativeQuery("SELECT COUNT(*) FROM tenant_usage WHERE tenant_id = 'acme'").getSingleResult()).longValue()));
    }

    /** Four writers, each on its own connection, storing, replacing and deleting documents of one tenant at once. */
    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void concurrentWritersOfOneTenantLoseNoCount(String database) throws Exception {
        open(database);
        DocumentRegistry shared = jpa.perThread(DocumentRegistry.class, em -> new JpaDocumentRegistry(em, clock));
        ExecutorService writers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 30; i++) {
                        String id = "w" + writer + "-" + (i % 12); // revisits documents: replaces
                        store(shared, ACME, id, 1 + (i + writer) % 4, 10 + i);
                        if (i % 7 == 6) {
                            shared.delete(ACME, "w" + writer + "-" + (i % 5), () -> {});
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
        } finally {
            writers.shutdownNow();
        }
        CorpusStats counted = documents.stats("acme");
        assertTrue(counted.documents() > 0);
        assertUsage("acme", counted.documents(), counted.chunks(), counted.bytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void theMigrationCountsTheDocumentsAlreadyStored(String database) throws Exception {
        open(database);
        var em = jpa.entityManager();
        ControlPlaneJpa.inTx(em, () -> {
            StoredDocumentRows.insert(em.unwrap(java.sql.Connection.class), 0, 300, id -> "acme", "a stored text");
            return null;
        });
        assertEquals(0, documents.totals("acme").documents(), "rows written behind the registry's back are not counted");

        TenantUsageRows.recount(em); // V14's statement

        assertUsage("acme", 300, 900, 300L * "a stored text".length());
        assertUsage("beta", 0, 0, 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void theQuotaCheckAndTheFleetPageReadNoDocumentRows(String database) throws Exception {
        open(database);
        store(documents, ACME, "a", 3, 100);
        JpaFleetQuery fleet = new JpaFleetQuery();
        fleet.em = jpa.entityManager();

        List<String> sql = SqlRecorder.during(() -> {
            assertEquals(1, documents.totals("acme").documents());
            List<JpaFleetQuery.Row> page = ControlPlaneJpa.inTx(jpa.entityManager(), () -> fleet.page("chunks", true, null, null, 0, 50));
            assertEquals(List.of("acme", "beta"), page.stream().map(JpaFleetQuery.Row::id).toList());
            assertEquals(3, page.get(0).chunks());
        });

        assertFalse(sql.isEmpty());
        assertTrue(sql.stream().noneMatch(s -> s.toLowerCase(java.util.Locale.ROOT).matches("(?s).*\\b(from|join)\\s+documents\\b.*")),
                "no statement reads the documents table: " + sql);
    }

    /** One stored version of {@code documentId} with {@code chunks} chunks of {@code bytes} bytes in all. */
    private static void store(DocumentRegistry registry, Namespace namespace, String documentId, int chunks, long bytes) {
        int version = registry.beginVersion(namespace, documentId, documentId + ".md", "text/markdown", Map.of(), bytes);
        registry.activateVersion(namespace, documentId, version, "hash-" + version, chunks, "text of " + documentId,
                new DocumentDescription(documentId + ".md", "text/markdown", Map.of(), bytes));
    }

    /** The usage row holds these counts, and they are the documents' own aggregate. */
    private void assertUsage(String tenantId, long documentCount, long chunks, long bytes) {
        CorpusStats usage = documents.totals(tenantId);
        assertEquals(List.of(documentCount, chunks, bytes), List.of(usage.documents(), usage.chunks(), usage.bytes()), "usage of " + tenantId);
        CorpusStats counted = documents.stats(tenantId);
        assertEquals(List.of(counted.documents(), counted.chunks(), counted.bytes()), List.of(usage.documents(), usage.chunks(), usage.bytes()),
                "usage of " + tenantId + " against the documents' aggregate");
    }
}
