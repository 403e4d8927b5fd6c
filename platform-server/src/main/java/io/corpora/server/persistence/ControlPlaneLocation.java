package io.corpora.server.persistence;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import javax.sql.DataSource;

/**
 * The control plane's URL as its driver reports it, read once: whether another process can reach the database decides
 * what may be kept in this process (rate-limit buckets) and what may be done to it alone (compaction at stop).
 */
@ApplicationScoped
public class ControlPlaneLocation {

    @Resource(lookup = ControlPlane.DATA_SOURCE_JNDI)
    DataSource dataSource;

    private volatile String url;
    private volatile boolean read;

    /** The reported URL; null (said in the log once) when the data source cannot answer. */
    public String url() {
        if (!read) {
            synchronized (this) {
                if (!read) {
                    url = ControlPlaneUrl.reportedBy(dataSource);
                    read = true;
                }
            }
        }
        return url;
    }

    /** {@link ControlPlaneUrl#privateToThisProcess} of {@link #url()}. */
    public boolean privateToThisProcess() {
        return ControlPlaneUrl.privateToThisProcess(url());
    }

    public DataSource dataSource() {
        return dataSource;
    }
}
