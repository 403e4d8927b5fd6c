package io.corpora.loader.common;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.DocumentLoadException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DeadlineTest {

    @Test
    void checkPassesBeforeTheTimeout() {
        Deadline deadline = Deadline.start(Duration.ofMinutes(5), "a.txt");
        assertFalse(deadline.expired());
        assertDoesNotThrow(() -> deadline.check("reading"));
    }

    @Test
    void checkFailsWithTimeoutOnceExpiredNamingTheActivity() {
        Deadline deadline = Deadline.start(Duration.ofMillis(20), "slow.pdf");
        long giveUp = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!deadline.expired()) {
            assertTrue(System.nanoTime() < giveUp, "deadline never expired");
            Thread.onSpinWait();
        }
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> deadline.check("reading page 7"));
        assertEquals(DocumentLoadException.Reason.TIMEOUT, e.reason());
        assertTrue(e.getMessage().startsWith("'slow.pdf' took longer than 20 ms to load and was abandoned while reading page 7"),
                e.getMessage());
    }

    @Test
    void nonPositiveTimeoutIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Deadline.start(Duration.ZERO, "x"));
    }

    @Test
    void byteSizesReadWell() {
        assertEquals("999 bytes", ByteSizes.format(999));
        assertEquals("1.5 KB", ByteSizes.format(1536));
        assertEquals("200.0 MB", ByteSizes.format(200L * 1024 * 1024));
    }
}
