package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.TenantRepository;
import jakarta.persistence.EntityManager;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The evaluations table on both databases: lifecycle, history order and paging, tenant scoping, apply once, purge. */
class JpaEvaluationsTest {

    @TempDir
    Path dataDir;

    private ControlPlaneJpa jpa;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00.123456789Z"));
    private final Clock clock = new Clock() {
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now.get(); }
    };

    @AfterEach
    void close() {
        if (jpa != null) {
            jpa.close();
        }
    }

    /** Each call in its own resource-local transaction, as {@code @Transactional} gives it in the server. */
    private <T> T tx(Supplier<T> work) {
        EntityManager em = jpa.entityManager();
        em.getTransaction().begin();
        try {
            T result = work.get();
            em.getTransaction().commit();
            return result;
        } finally {
            if (em.getTransaction().isActive()) {
                em.getTransaction().rollback();
            }
            em.clear();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void anEvaluationIsRecordedRunAndAppliedOnce(String database) throws Exception {
        if ("postgresql".equals(database)) {
            Assumptions.assumeTrue(ControlPlaneDatabases.pgUrl() != null, ControlPlaneDatabases.pgSkipReason());
        }
        jpa = ControlPlaneJpa.open(database, dataDir);
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        tenants.create(ControlPlaneRepositoriesTest.tenant("other"));
        JpaEvaluations evaluations = new JpaEvaluations(jpa.entityManager(), clock);

        JpaEvaluations.Row first = tx(() -> evaluations.create(new JpaEvaluations.NewEvaluation("acme", "ada", "ada", Set.of("legal", "b"),
                null, 3, 5, 10, List.of(Map.of("mode", "vector")), 3)));
        now.updateAndGet(t -> t.plus(Duration.ofSeconds(1)));
        JpaEvaluations.Row second = tx(() -> evaluations.create(new JpaEvaluations.NewEvaluation("acme", "ada", "ada", Set.of(), "p1", 3, 5, 10,
                List.of(Map.of("mode", "keyword")), 3)));
        assertEquals(JpaEvaluations.Status.QUEUED, first.status());
        assertEquals(List.of("b", "legal"), first.actorGroups());
        assertEquals(List.of(first.id(), second.id()).stream().sorted().toList(), tx(() -> evaluations.running("acme")).stream().sorted().toList());

        tx(() -> { evaluations.markRunning(first.id()); evaluations.progress(first.id(), 2); return null; });
        JpaEvaluations.Row running = tx(() -> evaluations.find("acme", first.id())).orElseThrow();
        assertEquals(JpaEvaluations.Status.RUNNING, running.status());
        assertEquals(2, running.done());
        assertEquals(Optional.empty(), tx(() -> evaluations.markApplied("acme", first.id(), "ada")), "a running evaluation cannot be applied");

        tx(() -> { evaluations.succeed(first.id(), List.of(Map.of("ndcg10", 0.5)), 0); return null; });
        tx(() -> { evaluations.fail(second.id(), "boom"); return null; });
        JpaEvaluations.Row done = tx(() -> evaluations.find("acme", first.id())).orElseThrow();
        assertEquals(JpaEvaluations.Status.SUCCEEDED, done.status());
        assertEquals(3, done.done());
        assertEquals("[{\"ndcg10\":0.5}]", done.resultsJson());
        assertEquals(0, done.recommended());
        assertNull(done.appliedAt());
        assertTrue(tx(() -> evaluations.running("acme")).isEmpty());

        assertEquals(Optional.empty(), tx(() -> evaluations.find("other", first.id())), "another tenant never sees it");
        assertEquals(Optional.empty(), tx(() -> evaluations.markApplied("other", first.id(), "eve")));
        assertEquals(Optional.empty(), tx(() -> evaluations.markApplied("acme", second.id(), "ada")), "a failed evaluation cannot be applied");
        JpaEvaluations.Row applied = tx(() -> evaluations.markApplied("acme", first.id(), "ada")).orElseThrow();
        assertEquals("ada", applied.appliedBy());
        assertEquals(Optional.empty(), tx(() -> evaluations.markApplied("acme", first.id(), "ada")), "applied once");

        assertEquals(List.of(second.id()), tx(() -> evaluations.list("acme", 0, 1)).stream().map(JpaEvaluations.Row::id).toList(), "newest first");
        assertEquals(List.of(first.id()), tx(() -> evaluations.list("acme", 1, 5)).stream().map(JpaEvaluations.Row::id).toList());
        assertTrue(tx(() -> evaluations.list("other", 0, 5)).isEmpty());

        tenants.delete("acme"); // the purge removes the tenant's evaluations with it
        assertTrue(tx(() -> evaluations.list("acme", 0, 5)).isEmpty());
    }
}
