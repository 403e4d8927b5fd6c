package io.corpora.server.rest;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.logging.Filter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

class RefusedRequestUriRecordsTest {

    @Test
    void dropsTheContainersRecordOfARefusedUriAndPassesItsOtherRecords() {
        RefusedRequestUriRecords filter = new RefusedRequestUriRecords(null);

        // As Liberty's WebApp.handleRequest logs it: SRVE0315E with a Throwable around the URI check's IOException as parameter.
        LogRecord asLogged = severe(null);
        asLogged.setParameters(new Object[] {new Throwable(thrownBy(RefusedRequestUriRecords.URI_CHECKS, "verifyEncodedCharacter"))});
        assertFalse(filter.isLoggable(asLogged));
        assertFalse(filter.isLoggable(severe(new Throwable(thrownBy(RefusedRequestUriRecords.URI_CHECKS, "verifyEncodedCharacter")))));
        assertFalse(filter.isLoggable(severe(thrownBy(RefusedRequestUriRecords.URI_CHECKS, "canonicalizeURI"))));

        // A failure of the application or of the container elsewhere is still the operator's to see.
        assertTrue(filter.isLoggable(severe(new Throwable(thrownBy("com.ibm.ws.webcontainer.srt.SRTServletResponse", "flushBuffer")))));
        assertTrue(filter.isLoggable(severe(new Throwable(new IllegalStateException("from the application")))));
        assertTrue(filter.isLoggable(severe(new IllegalStateException("checked by RequestUtils", thrownBy("io.corpora.Other", "read")))));
        assertTrue(filter.isLoggable(severe(null)));
        LogRecord applicationFailure = severe(null);
        applicationFailure.setParameters(new Object[] {"text", new Throwable(new IllegalStateException("from the application"))});
        assertTrue(filter.isLoggable(applicationFailure));
    }

    @Test
    void asksTheLoggersPreviousFilterAboutEveryOtherRecord() {
        Filter refusesAll = record -> false;
        RefusedRequestUriRecords filter = new RefusedRequestUriRecords(refusesAll);

        assertFalse(filter.isLoggable(severe(new IllegalStateException("the previous filter decides"))));
        assertSame(refusesAll, filter.previous());
    }

    @Test
    void theListenerFiltersTheContainersLoggerOnlyWhileTheApplicationRuns() {
        Logger logger = Logger.getLogger(RefusedRequestUriRecords.CONTAINER_LOGGER);
        Filter before = record -> true;
        logger.setFilter(before);
        try {
            ContainerRefusalLogging listener = new ContainerRefusalLogging();
            listener.contextInitialized(null);
            RefusedRequestUriRecords installed = (RefusedRequestUriRecords) logger.getFilter();
            assertSame(before, installed.previous());
            assertFalse(logger.getFilter().isLoggable(severe(thrownBy(RefusedRequestUriRecords.URI_CHECKS, "verifyEncodedCharacter"))));

            listener.contextDestroyed(null);
            assertSame(before, logger.getFilter());
        } finally {
            logger.setFilter(null);
        }
    }

    private static IOException thrownBy(String className, String method) {
        IOException e = new IOException("CWWWC0005I: The request URI has invalid or improperly encoded characters");
        e.setStackTrace(new StackTraceElement[] {new StackTraceElement(className, method, "X.java", 1),
                new StackTraceElement("com.ibm.ws.webcontainer.webapp.WebApp", "handleRequest", "WebApp.java", 2)});
        return e;
    }

    private static LogRecord severe(Throwable thrown) {
        LogRecord record = new LogRecord(Level.SEVERE, "SRVE0315E");
        record.setThrown(thrown);
        return record;
    }
}
