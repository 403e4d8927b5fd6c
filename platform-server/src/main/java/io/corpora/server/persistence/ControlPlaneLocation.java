package io.corpora.server.persistence;

import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The control plane's URL as its driver reports it, read once: whether another process can reach the database decides
 * what may be kept in this process (rate-limit buckets) and what may be done to it alone (compaction at stop).
 */
@ApplicationScoped
public class ControlPlaneLocation {

    @Resource(lookup = ControlPlane.DATA_SOURCE_JNDI)
    DataSource dataSource;

    /** The URL once read (empty: the data source could not answer); null until then. */
    private volatile Optional<String> url;

    /** The reported URL; null (said in the log once) when the data source cannot answer. */
    public String url() {
        Optional<String> read = url;
        if (read == null) {
            synchronized (this) {
                read = url;
                if (read == null) {
                    read = Optional.ofNullable(ControlPlaneUrl.reportedBy(dataSource));
                    url = read;
                }
            }
        }
        return read.orElse(null);
    }

    /** {@link ControlPlaneUrl#privateToThisProcess} of {@link #url()}. */
    public boolean privateToThisProcess() {
        return ControlPlaneUrl.privateToThisProcess(url());
    }

    public DataSource dataSource() {
        return dataSource;
    }
}
