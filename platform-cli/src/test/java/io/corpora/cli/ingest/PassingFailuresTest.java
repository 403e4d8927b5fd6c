package io.corpora.cli.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.cli.ServerTask;
import org.junit.jupiter.api.Test;

/** Which refusals {@code corpora ingest} sends again: the ones a later try of the same file can get past. */
class PassingFailuresTest {

    @Test
    void refusalsThatPassAreSentAgain() {
        assertTrue(IngestCommand.passing(503, "job-interrupted"), "the server running the job stopped");
        assertTrue(IngestCommand.passing(409, "concurrent-write"));
        assertTrue(IngestCommand.passing(409, "migration-in-progress"));
        assertTrue(IngestCommand.passing(429, "rate-limited"));
        assertTrue(IngestCommand.passing(503, "plugin-unavailable"));
        assertTrue(IngestCommand.passing(502, ""), "a proxy whose server died");
        assertTrue(IngestCommand.passing(504, ""));
        assertTrue(IngestCommand.passing(0, IngestCommand.NO_ANSWER), "a connection closed unanswered");
    }

    @Test
    void refusalsOfTheFileItselfAreNot() {
        assertFalse(IngestCommand.passing(422, "unreadable-document"));
        assertFalse(IngestCommand.passing(413, "unreadable-document"));
        assertFalse(IngestCommand.passing(415, "unsupported-media-type"));
        assertFalse(IngestCommand.passing(409, "quota-exceeded"));
        assertFalse(IngestCommand.passing(400, "invalid-request"));
        assertFalse(IngestCommand.passing(500, "internal-error"));
        assertFalse(IngestCommand.passing(0, ""));
    }

    @Test
    void aProblemsKindIsTheLastSegmentOfItsType() {
        assertEquals("concurrent-write", ServerTask.problemKind("{\"type\":\"https://corpora.dev/problems/concurrent-write\",\"status\":409}"));
        assertEquals("", ServerTask.problemKind("<html><body><h1>502 Bad Gateway</h1></body></html>"));
        assertEquals("", ServerTask.problemKind(""));
    }
}
