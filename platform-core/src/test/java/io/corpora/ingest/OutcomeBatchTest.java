package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.corpora.controlplane.IngestJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OutcomeBatchTest {

    private final List<List<String>> recorded = new ArrayList<>();
    private final long[] now = {0};

    private OutcomeBatch batch(int maxBatch, Duration maxDelay) {
        return new OutcomeBatch(outcomes -> recorded.add(outcomes.stream().map(IngestJob.Outcome::documentId).toList()), maxBatch,
                maxDelay, () -> now[0]);
    }

    private static IngestJob.Outcome stored(String documentId) {
        return new IngestJob.Outcome(documentId, "stored", 1, 1, 201, null);
    }

    @Test
    void outcomesAreRecordedInGroupsOfAtMostMaxBatchInTheirOrder() {
        OutcomeBatch batch = batch(3, Duration.ofHours(1));
        List.of("a", "b", "c", "d", "e").forEach(id -> batch.accept(stored(id)));
        assertEquals(List.of(List.of("a", "b", "c")), recorded, "a full group is recorded at once");
        assertEquals(2, batch.pending());
        batch.flush();
        assertEquals(List.of(List.of("a", "b", "c"), List.of("d", "e")), recorded);
        batch.flush();
        assertEquals(2, recorded.size(), "nothing pending, nothing recorded");
    }

    @Test
    void anOutcomeWaitsNoLongerThanMaxDelay() {
        OutcomeBatch batch = batch(100, Duration.ofMillis(250));
        assertEquals(Long.MAX_VALUE, batch.nanosUntilDue(), "nothing held: no deadline");
        batch.accept(stored("a"));
        now[0] += 100_000_000L;
        batch.accept(stored("b"));
        assertEquals(150_000_000L, batch.nanosUntilDue(), "the oldest outcome sets the deadline");
        assertEquals(List.of(), recorded);
        now[0] += 150_000_000L;
        assertEquals(0, batch.nanosUntilDue());
        batch.due();
        assertEquals(List.of(List.of("a", "b")), recorded);
        assertEquals(Long.MAX_VALUE, batch.nanosUntilDue());

        batch.accept(stored("c"));
        now[0] += 300_000_000L;
        batch.accept(stored("d")); // arriving after the oldest's deadline: both recorded now
        assertEquals(List.of(List.of("a", "b"), List.of("c", "d")), recorded);
    }

    @Test
    void aGroupWhoseRecordingFailedIsNotRecordedAgain() {
        List<Integer> sizes = new ArrayList<>();
        OutcomeBatch batch = new OutcomeBatch(outcomes -> {
            sizes.add(outcomes.size());
            if (sizes.size() == 1) {
                throw new IllegalStateException("the job was closed by another server");
            }
        }, 10, Duration.ofHours(1), () -> 0);
        batch.accept(stored("a"));
        assertThrows(IllegalStateException.class, batch::flush);
        batch.accept(stored("b"));
        batch.flush();
        assertEquals(List.of(1, 1), sizes);
    }

    @Test
    void boundsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> batch(0, Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> batch(1, Duration.ofMillis(-1)));
    }
}
