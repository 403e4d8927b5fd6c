package io.corpora.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InferenceWorkersTest {

    @Test
    void keepsInputOrderAndNeverRunsMoreThanItsWorkers() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        try (InferenceWorkers workers = new InferenceWorkers(2, "test-worker")) {
            List<Integer> inputs = IntStream.range(0, 200).boxed().toList();
            List<Integer> out = workers.map(inputs, i -> {
                peak.accumulateAndGet(running.incrementAndGet(), Math::max);
                double busy = 0;
                for (int k = 0; k < 20_000; k++) {
                    busy += Math.sqrt(k + i);
                }
                running.decrementAndGet();
                return busy > 0 ? i * 2 : -1;
            });
            assertEquals(inputs.stream().map(i -> i * 2).toList(), out);
        }
        assertTrue(peak.get() <= 2, "peak concurrency " + peak.get());
    }

    @Test
    void rethrowsTheTaskFailureItself() {
        try (InferenceWorkers workers = new InferenceWorkers(1, "test-worker")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> workers.map(List.of(1, 2), i -> {
                        if (i == 2) {
                            throw new IllegalArgumentException("input 2 is bad");
                        }
                        return i;
                    }));
            assertEquals("input 2 is bad", e.getMessage());
        }
    }

    @Test
    void refusesZeroWorkers() {
        assertThrows(IllegalArgumentException.class, () -> new InferenceWorkers(0, "x"));
    }
}
