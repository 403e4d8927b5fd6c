package io.corpora.tenancy.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

/** Where in its input a Jackson parse failed, for an error message. */
public final class JsonErrorLocation {

    private JsonErrorLocation() {}

    /**
     * {@code " (line L, column C)"}, or empty when the failure has no location: a parser limit's failure (nesting
     * depth, a number's or a string's length) carries none.
     */
    public static String of(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        return at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
    }
}
