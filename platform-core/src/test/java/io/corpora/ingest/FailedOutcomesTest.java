package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestJob;
import io.corpora.spi.InvalidInputException;
import org.junit.jupiter.api.Test;

class FailedOutcomesTest {

    @Test
    void aRefusalKeepsItsStatusKindAndReason() {
        IngestException refusal = new IngestException(409, "concurrent-write", "'a.md' is being written by another request");

        IngestJob.Outcome outcome = FailedOutcomes.of("a.md", 3, refusal, "unchanged");

        assertEquals(new IngestJob.Outcome("a.md", "failed", 3, 0, 409, refusal.getMessage(), "concurrent-write"), outcome);
        assertFalse(FailedOutcomes.unexpected(refusal));
    }

    @Test
    void refusedInputIsACallersErrorWithItsReason() {
        InvalidInputException tooLong = new InvalidInputException("chunk of 700 tokens exceeds the model's 512");

        IngestJob.Outcome outcome = FailedOutcomes.of("a.md", 0, tooLong, "unchanged");

        assertEquals(400, outcome.status());
        assertEquals("invalid-request", outcome.problem());
        assertEquals(tooLong.getMessage(), outcome.error());
        assertFalse(FailedOutcomes.unexpected(tooLong));
    }

    @Test
    void anythingElseIsAnInternalErrorThatKeepsItsMessageOutOfTheOutcome() {
        IllegalStateException broken = new IllegalStateException("connection to db2.internal:5432 refused");

        IngestJob.Outcome outcome = FailedOutcomes.of("a.md", 2, broken, "the previous version, if any, is unchanged");

        assertEquals(500, outcome.status());
        assertEquals("internal-error", outcome.problem());
        assertEquals("internal error (IllegalStateException); the previous version, if any, is unchanged", outcome.error());
        assertEquals(2, outcome.version());
        assertTrue(FailedOutcomes.unexpected(broken));
    }
}
