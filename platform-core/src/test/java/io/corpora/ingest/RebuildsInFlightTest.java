package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobStatus;
import io.corpora.spi.Namespace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RebuildsInFlightTest {

    private static final Namespace ACME = Namespace.of("acme");
    private final AtomicInteger created = new AtomicInteger();

    private IngestJob newJob() {
        return new IngestJob("job-" + created.incrementAndGet(), "acme", null, JobKind.INGEST, JobStatus.QUEUED, 3, 0, 0, 0,
                List.of(), null, null, null, Instant.EPOCH, Instant.EPOCH);
    }

    @Test
    void aSecondRebuildOfTheNamespaceIsRefusedNamingTheFirstAndCreatesNoJob() {
        RebuildsInFlight rebuilds = new RebuildsInFlight();
        IngestJob first = rebuilds.begin(ACME, this::newJob);

        IngestException refused = assertThrows(IngestException.class, () -> rebuilds.begin(ACME, this::newJob));
        assertEquals(409, refused.status());
        assertEquals("rebuild-in-progress", refused.type());
        assertTrue(refused.getMessage().contains(first.id()), refused.getMessage());
        assertEquals(1, created.get(), "the refused rebuild made no job");

        rebuilds.ended(ACME);
        assertNull(rebuilds.inFlight(ACME));
        assertEquals("job-2", rebuilds.begin(ACME, this::newJob).id(), "once ended, the namespace can be rebuilt again");
    }

    @Test
    void partitionsAndTenantsAreRebuiltIndependently() {
        RebuildsInFlight rebuilds = new RebuildsInFlight();
        rebuilds.begin(ACME, this::newJob);
        rebuilds.begin(Namespace.of("acme", "legal"), this::newJob);
        rebuilds.begin(Namespace.of("beta"), this::newJob);
        assertEquals("job-1", rebuilds.inFlight(ACME));
        assertEquals("job-2", rebuilds.inFlight(Namespace.of("acme", "legal")));
        assertEquals("job-3", rebuilds.inFlight(Namespace.of("beta")));
    }

    @Test
    void aJobThatCouldNotBeCreatedLeavesTheNamespaceFree() {
        RebuildsInFlight rebuilds = new RebuildsInFlight();
        assertThrows(IllegalStateException.class, () -> rebuilds.begin(ACME, () -> {
            throw new IllegalStateException("control plane down");
        }));
        assertNull(rebuilds.inFlight(ACME));
        assertEquals("job-1", rebuilds.begin(ACME, this::newJob).id());
    }

    @Test
    void ofManyConcurrentRebuildsExactlyOneIsAccepted() throws Exception {
        RebuildsInFlight rebuilds = new RebuildsInFlight();
        int callers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        CountDownLatch go = new CountDownLatch(1);
        List<String> accepted = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger refused = new AtomicInteger();
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                calls.add(pool.submit(() -> {
                    go.await();
                    try {
                        accepted.add(rebuilds.begin(ACME, () -> {
                            Thread.onSpinWait(); // widen the window between the check and the record
                            return newJob();
                        }).id());
                    } catch (IngestException e) {
                        refused.incrementAndGet();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> call : calls) {
                call.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(1, accepted.size(), "accepted: " + accepted);
        assertEquals(callers - 1, refused.get());
        assertEquals(1, created.get());
    }
}
