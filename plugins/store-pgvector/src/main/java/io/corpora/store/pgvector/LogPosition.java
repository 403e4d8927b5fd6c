package io.corpora.store.pgvector;

import io.corpora.spi.InvalidInputException;
import java.util.regex.Pattern;

/**
 * A primary's write-ahead-log position as a read-your-writes token: {@code pg:} followed by the LSN
 * ({@code pg_current_wal_lsn()}, e.g. {@code pg:0/3000148}). Callers treat it as opaque.
 */
record LogPosition(String lsn) {

    private static final String PREFIX = "pg:";
    private static final Pattern LSN = Pattern.compile("[0-9A-Fa-f]{1,8}/[0-9A-Fa-f]{1,8}");

    /** The position a token names; a token this store could not have issued is the caller's error. */
    static LogPosition parse(String token) {
        if (token == null) {
            return null;
        }
        if (!token.startsWith(PREFIX) || !LSN.matcher(token.substring(PREFIX.length())).matches()) {
            throw new InvalidInputException("not a consistency token of the pgvector store: '"
                    + (token.length() > 40 ? token.substring(0, 40) + "…" : token) + "' (expected pg:<LSN>, as an ingest answered it)");
        }
        return new LogPosition(token.substring(PREFIX.length()));
    }

    String token() {
        return PREFIX + lsn;
    }
}
