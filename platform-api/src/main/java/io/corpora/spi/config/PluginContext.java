package io.corpora.spi.config;

import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** What the server gives a provider when it creates an instance, beyond the instance's configuration. */
public interface PluginContext {

    /** A writable directory owned by this plugin instance (created on demand); durable across restarts. */
    Path dataDirectory();

    /** A logger named after the plugin. */
    Logger logger();

    /** A container-managed data source by JNDI name (e.g. Liberty's {@code <dataSource jndiName=…>}), if any. */
    default Optional<DataSource> dataSource(String jndiName) {
        return Optional.empty();
    }

    /** A context for tests and command-line tools. */
    static PluginContext of(Path dataDirectory, String loggerName) {
        return new PluginContext() {
            @Override
            public Path dataDirectory() {
                return dataDirectory;
            }

            @Override
            public Logger logger() {
                return Logger.getLogger(loggerName);
            }
        };
    }
}
