package io.corpora.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What a {@code java.util.logging} logger publishes while this is open, for a test that asserts a plugin logged a
 * warning: plugins log through the JDK's logging, since the SPI depends on the JDK alone.
 */
public final class CapturedLog implements AutoCloseable {

    private final Logger logger; // held: the logging framework keeps loggers only weakly
    private final List<LogRecord> records = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            synchronized (records) {
                records.add(record);
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private CapturedLog(Logger logger) {
        this.logger = logger;
        logger.addHandler(handler);
    }

    /** Starts capturing the logger named {@code name} (and its children). */
    public static CapturedLog of(String name) {
        return new CapturedLog(Logger.getLogger(name));
    }

    /** The records published so far, oldest first. */
    public List<LogRecord> records() {
        synchronized (records) {
            return List.copyOf(records);
        }
    }

    /** Whether a record of {@code level} whose message contains {@code fragment} was published. */
    public boolean has(Level level, String fragment) {
        return records().stream().anyMatch(r -> r.getLevel() == level && r.getMessage() != null && r.getMessage().contains(fragment));
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
