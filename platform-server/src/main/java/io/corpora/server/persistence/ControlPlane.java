package io.corpora.server.persistence;

/** Names shared by the control plane's configuration (persistence.xml, server.xml) and code. */
public final class ControlPlane {
    /** The persistence unit in META-INF/persistence.xml. */
    public static final String PERSISTENCE_UNIT = "corpora-control-plane";
    /** The server.xml dataSource's JNDI name. */
    public static final String DATA_SOURCE_JNDI = "jdbc/corpora-control-plane";

    private ControlPlane() {}
}
