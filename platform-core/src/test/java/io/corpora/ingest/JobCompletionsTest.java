package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class JobCompletionsTest {

    private static final Duration HOUR = Duration.ofHours(1);

    /** The control plane as the waiter reads it: the job's status now, and how often it was read. */
    private static final class StoredJob {
        final AtomicReference<JobStatus> status = new AtomicReference<>(JobStatus.RUNNING);
        final AtomicInteger reads = new AtomicInteger();
        final CountDownLatch read = new CountDownLatch(1);

        /** Signals the read only once its status is taken: a status the test sets after the signal is the next read's. */
        Optional<IngestJob> read() {
            JobStatus now = status.get();
            reads.incrementAndGet();
            Optional<IngestJob> job = Optional.of(new IngestJob("j1", "acme", null, JobKind.INGEST, now, 1, now == JobStatus.SUCCEEDED ? 1 : 0,
                    0, 0, List.of(), null, null, null, Instant.EPOCH, Instant.EPOCH));
            read.countDown();
            return job;
        }
    }

    @Test
    void aJobFinishingHereWakesItsWaiterAtOnceNotAtTheNextRecheck() {
        JobCompletions completions = new JobCompletions(HOUR, System::nanoTime); // a recheck would never come in time
        StoredJob stored = new StoredJob();
        CompletableFuture<Optional<IngestJob>> waited = CompletableFuture.supplyAsync(() -> awaitQuietly(completions, stored, HOUR));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertTrue(stored.read.await(10, TimeUnit.SECONDS), "the waiter read the job");
            stored.status.set(JobStatus.SUCCEEDED);
            completions.finished("j1");
            assertEquals(JobStatus.SUCCEEDED, waited.get().orElseThrow().status());
        });
        assertEquals(2, stored.reads.get(), "read once running, once after the wake-up");
        assertEquals(0, completions.jobsAwaited(), "nothing held once the waiter returned");
    }

    @Test
    void aJobFinishedByAnotherServerIsSeenAtTheNextRecheck() {
        JobCompletions completions = new JobCompletions(Duration.ofMillis(20), System::nanoTime);
        StoredJob stored = new StoredJob();
        CompletableFuture<Optional<IngestJob>> waited = CompletableFuture.supplyAsync(() -> awaitQuietly(completions, stored, HOUR));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertTrue(stored.read.await(10, TimeUnit.SECONDS));
            stored.status.set(JobStatus.SUCCEEDED); // no finished(): this process did not run it
            assertEquals(JobStatus.SUCCEEDED, waited.get().orElseThrow().status());
        });
        assertEquals(0, completions.jobsAwaited());
    }

    @Test
    void theWaitEndsWithTheJobStillRunningOnTheStepsOfTheClock() throws InterruptedException {
        long[] now = {0};
        StoredJob stored = new StoredJob();
        // Each reading advances the clock by 400 ms; rechecks every 500 ms of a 1 s wait.
        JobCompletions completions = new JobCompletions(Duration.ofMillis(500), () -> now[0]);
        Optional<IngestJob> last = completions.await("acme", "j1", Duration.ofSeconds(1), () -> {
            now[0] += 400_000_000L;
            return stored.read();
        });
        assertEquals(JobStatus.RUNNING, last.orElseThrow().status());
        assertEquals(3, stored.reads.get(), "read at 0.4 s and 0.8 s with time left, at 1.2 s past the wait");
        assertEquals(0, completions.jobsAwaited());
    }

    @Test
    void aFinishedOrMissingJobIsAnsweredWithoutWaiting() throws InterruptedException {
        JobCompletions completions = new JobCompletions(HOUR, System::nanoTime);
        StoredJob stored = new StoredJob();
        stored.status.set(JobStatus.FAILED);
        assertEquals(JobStatus.FAILED, completions.await("acme", "j1", HOUR, stored::read).orElseThrow().status());
        assertTrue(completions.await("acme", "gone", HOUR, Optional::empty).isEmpty());
        assertEquals(0, completions.jobsAwaited());
    }

    @Test
    void waitZeroReadsOnce() throws InterruptedException {
        JobCompletions completions = new JobCompletions(HOUR, System::nanoTime);
        StoredJob stored = new StoredJob();
        assertEquals(JobStatus.RUNNING, completions.await("acme", "j1", Duration.ZERO, stored::read).orElseThrow().status());
        assertEquals(1, stored.reads.get());
    }

    @Test
    void looksBeyondTheBoundsAreAnsweredAtOnceAndAFreedSlotIsReused() throws Exception {
        // Two waiters in all, one per tenant.
        JobCompletions completions = new JobCompletions(HOUR, 2, 1, System::nanoTime);
        StoredJob held = new StoredJob();
        CompletableFuture<Optional<IngestJob>> first = CompletableFuture.supplyAsync(() -> awaitQuietly(completions, held, HOUR));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertTrue(held.read.await(10, TimeUnit.SECONDS), "the first look is held");
            StoredJob sameTenant = new StoredJob();
            assertEquals(JobStatus.RUNNING, completions.await("acme", "j1", HOUR, sameTenant::read).orElseThrow().status(),
                    "acme's second look is answered at once: acme holds its one slot");
            assertEquals(1, sameTenant.reads.get());
            assertEquals(1, completions.waiting());

            StoredJob otherTenant = new StoredJob();
            CompletableFuture<Optional<IngestJob>> other = CompletableFuture.supplyAsync(() -> {
                try {
                    return completions.await("globex", "j1", HOUR, otherTenant::read);
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertTrue(otherTenant.read.await(10, TimeUnit.SECONDS), "another tenant's look takes the second slot");
            StoredJob third = new StoredJob();
            completions.await("initech", "j1", HOUR, third::read);
            assertEquals(1, third.reads.get(), "no slot left in all: answered at once");

            held.status.set(JobStatus.SUCCEEDED);
            otherTenant.status.set(JobStatus.SUCCEEDED);
            completions.finished("j1");
            assertEquals(JobStatus.SUCCEEDED, first.get().orElseThrow().status());
            assertEquals(JobStatus.SUCCEEDED, other.get().orElseThrow().status());
        });
        assertEquals(0, completions.waiting(), "every slot given back");
        StoredJob again = new StoredJob();
        CompletableFuture<Optional<IngestJob>> reused = CompletableFuture.supplyAsync(() -> awaitQuietly(completions, again, HOUR));
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            assertTrue(again.read.await(10, TimeUnit.SECONDS));
            again.status.set(JobStatus.SUCCEEDED);
            completions.finished("j1");
            assertEquals(JobStatus.SUCCEEDED, reused.get().orElseThrow().status());
        });
        assertEquals(2, again.reads.get(), "held again (read, woken, read): acme's slot was given back");
    }

    @Test
    void aRecheckMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new JobCompletions(Duration.ZERO, System::nanoTime));
    }

    private static Optional<IngestJob> awaitQuietly(JobCompletions completions, StoredJob stored, Duration wait) {
        try {
            return completions.await("acme", "j1", wait, stored::read);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
