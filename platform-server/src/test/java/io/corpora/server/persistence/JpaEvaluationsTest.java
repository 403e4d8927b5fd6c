package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.TenantRepository;
import jakarta.persistence.EntityManager;
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
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The evaluations table on both databases: lifecycle, history order and paging, tenant scoping, apply once, purge. */
class JpaEvaluationsTest {

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private ControlPlaneJpa jpa;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00.123456789Z"));
    private final Clock clock = new Clock() {
        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now.get(); }
    };

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
        jpa = controlPlanes.open(database);
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        tenants.create(ControlPlaneRepositoriesTest.tenant("other"));
        JpaEvaluations evaluations = new JpaEvaluations(jpa.entityManager(), clock);

        JpaEvaluations.Row first = tx(() -> evaluations.create(new JpaEvaluations.NewEvaluation("acme", "ada", "ada", Set.of("legal", "b"),
                null, 3, 5, 10, List.of(Map.of("mode", "vector")), 3, "set-a", null)));
        now.updateAndGet(t -> t.plus(Duration.ofSeconds(1)));
        JpaEvaluations.Row second = tx(() -> evaluations.create(new JpaEvaluations.NewEvaluation("acme", "ada", "ada", Set.of(), "p1", 3, 5, 10,
                List.of(Map.of("mode", "keyword")), 3, "set-a", 0.05)));
        assertEquals(JpaEvaluations.Status.QUEUED, first.status());
        assertEquals(0.01, first.maxDrop(), "no maxDrop asked: the default");
        assertEquals(0.05, second.maxDrop());
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

    private static final long TTL = 15_000;

    private JpaEvaluations.NewEvaluation judged(String fingerprint, Set<String> groups, String partition, int recallAt) {
        return new JpaEvaluations.NewEvaluation("acme", "ada", "ada", groups, partition, 2, 2, recallAt, List.of(Map.of("mode", "vector")), 2,
                fingerprint, null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void anEvaluationLeftOpenByAServerWhoseLeaseExpiredIsFailedOnceWithItsReasonAndNoLongerBlocks(String database) throws Exception {
        jpa = controlPlanes.open(database);
        jpa.transactional(TenantRepository.class, jpa.tenants(clock)).create(ControlPlaneRepositoriesTest.tenant("acme"));
        jpa.transactional(TenantRepository.class, jpa.tenants(clock)).create(ControlPlaneRepositoriesTest.tenant("other"));
        var leases = jpa.leases();
        long nowMs = System.currentTimeMillis();
        leases.register("node1@live", "node1", nowMs, TTL);
        leases.register("node2@dead", "node2", nowMs - 2 * TTL, TTL); // last renewed two ttls ago
        leases.register("node3@survivor", "node3", nowMs, TTL);
        JpaEvaluations live = new JpaEvaluations(jpa.entityManager(), clock, "node1@live");
        JpaEvaluations dead = new JpaEvaluations(jpa.entityManager(), clock, "node2@dead");
        JpaEvaluations survivor = new JpaEvaluations(jpa.entityManager(), clock, "node3@survivor");

        JpaEvaluations.Row running = tx(() -> dead.create(judged("s", Set.of(), null, 10)));
        assertTrue(tx(() -> dead.markRunning(running.id())));
        JpaEvaluations.Row queued = tx(() -> dead.create(new JpaEvaluations.NewEvaluation("other", "eve", "eve", Set.of(), null, 1, 1, 10,
                List.of(), 1, "s", null)));
        JpaEvaluations.Row healthy = tx(() -> live.create(judged("s", Set.of(), "p1", 10)));
        assertEquals("node2@dead", running.owner());
        assertEquals(2, tx(() -> dead.running("acme")).size(), "left open, the dead server's run blocks the tenant");

        // Scoped to one tenant (what a tenant's own POST does), another tenant's orphan is left to the sweep.
        List<JpaEvaluations.Orphan> ofOther = tx(() -> survivor.failOrphaned("node3@survivor", nowMs, "other"));
        assertEquals(List.of(queued.id()), ofOther.stream().map(JpaEvaluations.Orphan::id).toList());
        assertEquals(2, tx(() -> dead.running("acme")).size(), "acme's orphan is untouched by other's call");

        List<JpaEvaluations.Orphan> closed = tx(() -> survivor.failOrphaned("node3@survivor", nowMs));

        assertEquals(List.of(running.id()), closed.stream().map(JpaEvaluations.Orphan::id).toList(), "the sweep closes the rest");
        JpaEvaluations.Row failed = tx(() -> live.find("acme", running.id())).orElseThrow();
        assertEquals(JpaEvaluations.Status.FAILED, failed.status());
        assertEquals("server node2@dead stopped while the evaluation ran (its lease expired); start the evaluation again", failed.error());
        assertEquals("node3@survivor", failed.owner(), "adopted before it was closed");
        assertTrue(failed.finished() != null);
        assertEquals(JpaEvaluations.Status.FAILED, tx(() -> live.find("other", queued.id())).orElseThrow().status(), "a queued one too");
        assertEquals(List.of(healthy.id()), tx(() -> live.running("acme")), "the live server's run is untouched and is all that is open");
        assertTrue(tx(() -> live.failOrphaned("node1@live", nowMs)).isEmpty(), "nothing is closed twice");

        // Had the dead server only paused, its late result is refused and the adopter's verdict stands.
        assertFalse(tx(() -> dead.succeed(running.id(), List.of(Map.of("ndcg10", 0.9)), 0)));
        tx(() -> { dead.fail(running.id(), "late"); return null; });
        JpaEvaluations.Row kept = tx(() -> live.find("acme", running.id())).orElseThrow();
        assertEquals(JpaEvaluations.Status.FAILED, kept.status());
        assertTrue(kept.error().startsWith("server node2@dead stopped"), kept.error());
        assertNull(kept.resultsJson());

        // A cleanly stopped server (lease released) hands its open run over at once.
        leases.release("node1@live");
        assertEquals(List.of(healthy.id()), tx(() -> survivor.failOrphaned("node3@survivor", nowMs)).stream().map(JpaEvaluations.Orphan::id).toList());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void thePreviousComparableRunIsTheNewestEarlierSuccessOnTheSameJudgedSetRecallAndActor(String database) throws Exception {
        jpa = controlPlanes.open(database);
        jpa.transactional(TenantRepository.class, jpa.tenants(clock)).create(ControlPlaneRepositoriesTest.tenant("acme"));
        JpaEvaluations evaluations = new JpaEvaluations(jpa.entityManager(), clock);
        JpaEvaluations.Row oldest = tx(() -> evaluations.create(judged("s", Set.of("g"), null, 10)));
        tx(() -> evaluations.succeed(oldest.id(), List.of(), 0));
        now.updateAndGet(t -> t.plusSeconds(1));
        JpaEvaluations.Row older = tx(() -> evaluations.create(judged("s", Set.of("g"), null, 10)));
        tx(() -> evaluations.succeed(older.id(), List.of(), 0));
        now.updateAndGet(t -> t.plusSeconds(1));
        JpaEvaluations.Row failed = tx(() -> evaluations.create(judged("s", Set.of("g"), null, 10)));
        tx(() -> { evaluations.fail(failed.id(), "boom"); return null; });
        for (JpaEvaluations.NewEvaluation other : List.of(judged("t", Set.of("g"), null, 10), judged("s", Set.of(), null, 10),
                judged("s", Set.of("g"), "p1", 10), judged("s", Set.of("g"), null, 5))) {
            now.updateAndGet(t -> t.plusSeconds(1));
            JpaEvaluations.Row r = tx(() -> evaluations.create(other));
            tx(() -> evaluations.succeed(r.id(), List.of(), 0));
        }
        now.updateAndGet(t -> t.plusSeconds(1));
        JpaEvaluations.Row current = tx(() -> evaluations.create(judged("s", Set.of("g"), null, 10)));

        assertEquals(Optional.of(older.id()), tx(() -> evaluations.previousComparable(current)).map(JpaEvaluations.Row::id),
                "not the failed run, nor runs on another set, actor, partition or recallAt");
        assertEquals(Optional.of(oldest.id()), tx(() -> evaluations.previousComparable(older)).map(JpaEvaluations.Row::id));
        assertEquals(Optional.empty(), tx(() -> evaluations.previousComparable(oldest)));
        JpaEvaluations.Row inPartition = tx(() -> evaluations.create(judged("s", Set.of("g"), "p1", 10)));
        assertTrue(tx(() -> evaluations.previousComparable(inPartition)).isPresent(), "the partition's earlier run");
    }
}
