package io.corpora.server.rest;

import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A failure the caller cannot act on: logged once at SEVERE, with its cause and the request being served, under a new
 * id the caller is given to quote to the operator (the problem's {@code incident}).
 */
public final class Incidents {

    private Incidents() {}

    /** Logs the incident on {@code log} ({@code what} may be empty) and returns its id. */
    public static String record(Logger log, String what, Throwable cause) {
        String id = UUID.randomUUID().toString();
        log.log(Level.SEVERE, "incident " + id + " (request " + RequestIds.current() + ")" + (what.isEmpty() ? "" : ": " + what), cause);
        return id;
    }
}
