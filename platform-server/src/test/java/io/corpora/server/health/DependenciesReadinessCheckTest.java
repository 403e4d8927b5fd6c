package io.corpora.server.health;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What readiness logs of a failing dependency: its own words once when it goes down and when it fails in another way,
 * not at every probe (they come every few seconds, and a failure's words may change each time), and once when it is
 * back. Readiness's answer itself never carries those words ({@code FaultToleranceIT}).
 */
class DependenciesReadinessCheckTest {

    private final Logger logger = Logger.getLogger(DependenciesReadinessCheck.class.getName());
    private final List<String> records = new CopyOnWriteArrayList<>();
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record.getLevel() + " " + record.getMessage());
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void listen() {
        logger.addHandler(capture);
    }

    @AfterEach
    void stopListening() {
        logger.removeHandler(capture);
    }

    @Test
    void aFailureIsLoggedWhenItBeginsOrChangesKindAndTheRecoveryOnce() {
        DependenciesReadinessCheck check = new DependenciesReadinessCheck();

        check.logChange("store:pgvector/1", null);
        check.logChange("store:pgvector/1", new SQLException("relation \"corpora_chunks_acme\" does not exist"));
        check.logChange("store:pgvector/1", new SQLException("relation \"corpora_chunks_acme\" does not exist (again)"));
        check.logChange("store:lucene/2", new IOException("/data/stores/lucene is read-only"));
        check.logChange("store:pgvector/1", new IllegalStateException("timed out after 2003 ms"));
        check.logChange("store:pgvector/1", null);
        check.logChange("store:pgvector/1", null);

        assertEquals(List.of(
                "WARNING readiness: store:pgvector/1 is DOWN: SQLException: relation \"corpora_chunks_acme\" does not exist",
                "WARNING readiness: store:lucene/2 is DOWN: IOException: /data/stores/lucene is read-only",
                "WARNING readiness: store:pgvector/1 is DOWN: IllegalStateException: timed out after 2003 ms",
                "INFO readiness: store:pgvector/1 is UP again"), records);
    }
}
