package io.corpora.server.persistence;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.JobRepository;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.Persistence;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * The control-plane persistence unit outside Liberty, on a migrated H2 file database or the test PostgreSQL schema,
 * with each port call in its own resource-local transaction, as {@code @Transactional} gives each call in the server.
 */
public final class ControlPlaneJpa implements AutoCloseable {

    private final EntityManagerFactory factory;
    private final EntityManager em;
    private final java.util.List<EntityManager> extra = new java.util.concurrent.CopyOnWriteArrayList<>();

    private ControlPlaneJpa(EntityManagerFactory factory) {
        this.factory = factory;
        this.em = factory.createEntityManager();
    }

    static ControlPlaneJpa h2(Path directory) {
        ControlPlaneMigrations.migrate(ControlPlaneDatabases.h2(directory), ControlPlaneJpa.class.getClassLoader());
        return new ControlPlaneJpa(Persistence.createEntityManagerFactory(ControlPlane.PERSISTENCE_UNIT,
                ControlPlaneDatabases.jpaProperties(ControlPlaneDatabases.h2Url(directory), "corpora", "")));
    }

    /** A freshly migrated {@link ControlPlaneDatabases#PG_SCHEMA}; the caller checks {@code CORPORA_TEST_PG_URL} first. */
    static ControlPlaneJpa postgres() throws Exception {
        ControlPlaneMigrations.migrate(ControlPlaneDatabases.freshPostgres(), ControlPlaneJpa.class.getClassLoader(), ControlPlaneDatabases.PG_SCHEMA);
        String url = ControlPlaneDatabases.pgUrl();
        url += (url.contains("?") ? "&" : "?") + "currentSchema=" + ControlPlaneDatabases.PG_SCHEMA;
        return new ControlPlaneJpa(Persistence.createEntityManagerFactory(ControlPlane.PERSISTENCE_UNIT,
                ControlPlaneDatabases.jpaProperties(url, "", "")));
    }

    /** H2 in {@code directory}, or PostgreSQL; a PostgreSQL run without {@code CORPORA_TEST_PG_URL} is skipped with the reason. */
    static ControlPlaneJpa open(String database, Path directory) throws Exception {
        if ("h2".equals(database)) {
            return h2(directory);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(ControlPlaneDatabases.pgUrl() != null, ControlPlaneDatabases.pgSkipReason());
        return postgres();
    }

    EntityManager entityManager() {
        return em;
    }

    /** {@code target} behind {@code port}, each call in its own transaction (rolled back when it throws). */
    <T> T transactional(Class<T> port, T target) {
        return transactional(port, target, em);
    }

    /** An entity manager of its own (its own connection), for a test that holds a transaction open; closed with the rest. */
    EntityManager ownEntityManager() {
        EntityManager own = factory.createEntityManager();
        extra.add(own);
        return own;
    }

    /** A job repository on its own entity manager (its own connection), e.g. one per concurrent worker. */
    JobRepository jobsOnOwnConnection(Clock clock) {
        EntityManager own = factory.createEntityManager();
        extra.add(own);
        return transactional(JobRepository.class, new JpaJobRepository(own, clock), own);
    }

    /**
     * A port whose calls each run on the calling thread's own entity manager (its own connection), built on first use
     * by {@code onConnection}: one object several threads may share, as the server's beans are.
     */
    @SuppressWarnings("unchecked")
    <T> T perThread(Class<T> port, java.util.function.Function<EntityManager, T> onConnection) {
        ThreadLocal<T> own = ThreadLocal.withInitial(() -> {
            EntityManager threadEm = factory.createEntityManager();
            extra.add(threadEm);
            return transactional(port, onConnection.apply(threadEm), threadEm);
        });
        InvocationHandler handler = (proxy, method, args) -> {
            try {
                return method.invoke(own.get(), args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        };
        return (T) Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, handler);
    }

    /** {@code work} in one transaction of {@code em}, rolled back when it throws; the persistence context is cleared after. */
    static <T> T inTx(EntityManager em, Supplier<T> work) {
        var tx = em.getTransaction();
        tx.begin();
        try {
            T result = work.get();
            tx.commit();
            return result;
        } finally {
            if (tx.isActive()) {
                tx.rollback();
            }
            em.clear();
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> T transactional(Class<T> port, T target, EntityManager em) {
        InvocationHandler handler = (proxy, method, args) -> {
            EntityTransaction tx = em.getTransaction();
            tx.begin();
            try {
                Object result = method.invoke(target, args);
                tx.commit();
                return result;
            } catch (InvocationTargetException e) {
                if (tx.isActive()) {
                    tx.rollback();
                }
                em.clear();
                throw e.getCause();
            } finally {
                em.clear();
            }
        };
        return (T) Proxy.newProxyInstance(port.getClassLoader(), new Class<?>[] {port}, handler);
    }

    /** A document registry on its own entity manager (its own connection), as another server's. */
    DocumentRegistry documentsOnOwnConnection(Clock clock) {
        EntityManager own = ownEntityManager();
        return transactional(DocumentRegistry.class, new JpaDocumentRegistry(own, clock), own);
    }

    JpaTenantRepository tenants(Clock clock) {
        return new JpaTenantRepository(em, clock);
    }

    /** On an entity manager whose connection records the statements the registry sends around EclipseLink ({@link SqlRecorder}). */
    JpaDocumentRegistry documents(Clock clock) {
        return new JpaDocumentRegistry(SqlRecorder.recordingJdbc(em), clock);
    }

    JpaJobRepository jobs(Clock clock) {
        return new JpaJobRepository(em, clock);
    }

    /** Server leases on this connection, each call its own transaction. */
    io.corpora.controlplane.ServerLeases leases() {
        return transactional(io.corpora.controlplane.ServerLeases.class, new JpaServerLeases(em));
    }

    /** Server leases that several threads may share, as the server's bean is: each thread on its own connection. */
    public io.corpora.controlplane.ServerLeases sharedLeases() {
        return perThread(io.corpora.controlplane.ServerLeases.class, JpaServerLeases::new);
    }

    JpaAuditLog audit(Clock clock) {
        return new JpaAuditLog(em, clock);
    }

    @Override
    public void close() {
        extra.forEach(EntityManager::close);
        em.close();
        factory.close();
    }
}
