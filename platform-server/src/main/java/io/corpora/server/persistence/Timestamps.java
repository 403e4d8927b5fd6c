package io.corpora.server.persistence;

import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** Control-plane timestamps: UTC, microsecond precision (what both databases store), so a re-read equals what was written. */
final class Timestamps {

    private Timestamps() {}

    static OffsetDateTime now(Clock clock) {
        return OffsetDateTime.ofInstant(clock.instant().truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    static OffsetDateTime of(Instant instant) {
        return OffsetDateTime.ofInstant(instant.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }

    /** A timestamp column as a native query returns it: an OffsetDateTime from H2, a java.sql.Timestamp from PostgreSQL's driver. */
    static Instant instant(Object column) {
        if (column == null || column instanceof OffsetDateTime) {
            return instant((OffsetDateTime) column);
        }
        if (column instanceof java.sql.Timestamp timestamp) {
            return timestamp.toInstant();
        }
        throw new IllegalStateException("not a timestamp column: " + column.getClass().getName());
    }
}
