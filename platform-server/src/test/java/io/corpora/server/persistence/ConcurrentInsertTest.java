package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.spi.Namespace;
import io.corpora.testkit.Poll;
import jakarta.persistence.EntityManager;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Two requests inserting the same key at once: each checks that the row does not exist, neither sees the other's
 * uncommitted insert, and the second insert waits on the first's key until it commits, then fails with a unique
 * violation. The loser must get the conflict its caller can act on (409), not a server failure (500). Interleaved on
 * the database itself: the first insert is held uncommitted until the database reports the second one waiting for it.
 */
class ConcurrentInsertTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final Namespace ACME = Namespace.of("acme");

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private final Clock clock = Clock.systemUTC();
    private ControlPlaneJpa jpa;
    private String database;

    private void open(String database) throws Exception {
        this.database = database;
        jpa = controlPlanes.open(database);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aTenantCreatedTwiceAtOnceIsAConflictForTheSecondRequest(String database) throws Exception {
        open(database);
        TenantRepository second = jpa.perThread(TenantRepository.class, em -> new JpaTenantRepository(em, clock));

        Throwable refused = racingTheFirst("tenants", first -> new JpaTenantRepository(first, clock)
                .create(ControlPlaneRepositoriesTest.tenant("acme")), () -> second.create(ControlPlaneRepositoriesTest.tenant("acme")));

        assertInstanceOf(IllegalStateException.class, refused, "a conflict (409), not a persistence failure (500)");
        assertEquals("tenant 'acme' already exists", refused.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aDocumentsFirstVersionBegunTwiceAtOnceIsAConcurrentWriteForTheSecond(String database) throws Exception {
        open(database);
        jpa.transactional(TenantRepository.class, jpa.tenants(clock)).create(ControlPlaneRepositoriesTest.tenant("acme"));
        DocumentRegistry second = jpa.perThread(DocumentRegistry.class, em -> new JpaDocumentRegistry(em, clock));

        Throwable refused = racingTheFirst("documents", first -> new JpaDocumentRegistry(first, clock)
                .beginVersion(ACME, "doc", "doc.md", "text/markdown", Map.of(), 10),
                () -> second.beginVersion(ACME, "doc", "doc.md", "text/markdown", Map.of(), 10));

        WriteRefusedException conflict = assertInstanceOf(WriteRefusedException.class, refused);
        assertEquals(WriteRefusedException.Reason.CONCURRENT_WRITE, conflict.reason(), conflict.getMessage());
        DocumentRecord document = second.find(ACME, "doc").orElseThrow();
        assertEquals(1, document.pendingVersion(), "the first writer's version stands");
    }

    /**
     * Runs {@code firstInsert} in a transaction left open, starts {@code secondInsert} on another thread and connection,
     * commits the first once the database shows the second waiting on it, and returns what the second threw.
     */
    private Throwable racingTheFirst(String table, java.util.function.Consumer<EntityManager> firstInsert, Runnable secondInsert)
            throws InterruptedException {
        EntityManager first = jpa.entityManager();
        first.getTransaction().begin();
        firstInsert.accept(first);
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread racer = new Thread(() -> {
            try {
                secondInsert.run();
            } catch (Throwable t) {
                thrown.set(t);
            }
        }, "second-insert");
        racer.setDaemon(true);
        racer.start();
        Poll.until("the second insert into " + table + " waits for the first", WAIT, () -> insertsWaiting(first, table) > 0);
        first.getTransaction().commit();
        racer.join(TimeUnit.SECONDS.toMillis(WAIT.getSeconds()));
        assertFalse(racer.isAlive(), "the second insert finished once the first committed");
        return thrown.get();
    }

    /** Other sessions inside an insert into {@code table} (blocked on the first's key: it cannot finish before the commit). */
    private long insertsWaiting(EntityManager em, String table) {
        String sql = "h2".equals(database)
                ? "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE SESSION_ID <> SESSION_ID() AND LOWER(EXECUTING_STATEMENT) LIKE 'insert into "
                        + table + "%'"
                : "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
                        + " AND LOWER(query) LIKE 'insert into " + table + "%'";
        if (!"h2".equals(database)) {
            em.createNativeQuery("SELECT pg_stat_clear_snapshot()").getSingleResult(); // else the view stays as this transaction first saw it
        }
        return ((Number) em.createNativeQuery(sql).getSingleResult()).longValue();
    }
}
