package io.corpora.server.persistence;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** What a control-plane JDBC URL says about who else can reach the database. */
public final class ControlPlaneUrl {

    private static final Logger LOG = Logger.getLogger(ControlPlaneUrl.class.getName());

    private ControlPlaneUrl() {}

    /** The URL the data source's driver reports; null (said in the log) when there is no data source or it cannot answer. */
    public static String reportedBy(DataSource dataSource) {
        if (dataSource == null) {
            return null;
        }
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getURL();
        } catch (SQLException e) {
            LOG.warning("Could not read the control plane's URL: " + e.getMessage());
            return null;
        }
    }

    /**
     * Whether no other process can open the database: embedded H2 (in memory, or a file H2 locks to the process that
     * opened it). Not when H2 is reached over TCP or SSL, lets other processes in ({@code AUTO_SERVER=TRUE}) or does not
     * lock its file ({@code FILE_LOCK=NO}); never for another database, nor for an unknown URL (null).
     */
    public static boolean privateToThisProcess(String jdbcUrl) {
        if (jdbcUrl == null) {
            return false;
        }
        String url = jdbcUrl.strip().toLowerCase(Locale.ROOT);
        if (!url.startsWith("jdbc:h2:")) {
            return false;
        }
        String location = url.substring("jdbc:h2:".length());
        if (location.startsWith("tcp:") || location.startsWith("ssl:")) {
            return false;
        }
        return !url.contains(";auto_server=true") && !url.contains(";file_lock=no");
    }
}
