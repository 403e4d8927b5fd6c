package io.corpora.server.rest;

import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.annotation.WebListener;
import java.util.logging.Logger;

/**
 * Keeps the container's refusals of a caller's request URI out of the server log while the application runs: they are
 * the caller's mistake, answered 400 problem+json, not the server's failure ({@link RefusedRequestUriRecords}).
 * The filter is removed when the application stops, so a server logger never holds this application's classes.
 */
@WebListener
public class ContainerRefusalLogging implements ServletContextListener {

    // Held here: java.util.logging keeps loggers weakly, and a collected logger would lose its filter.
    private Logger containerLogger;
    private RefusedRequestUriRecords filter;

    @Override
    public void contextInitialized(ServletContextEvent event) {
        containerLogger = Logger.getLogger(RefusedRequestUriRecords.CONTAINER_LOGGER);
        filter = new RefusedRequestUriRecords(containerLogger.getFilter());
        containerLogger.setFilter(filter);
    }

    @Override
    public void contextDestroyed(ServletContextEvent event) {
        if (containerLogger != null && containerLogger.getFilter() == filter) {
            containerLogger.setFilter(filter.previous());
        }
    }
}
