package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

class ControlPlaneUrlTest {

    @Test
    void theEmbeddedControlPlaneAsItsDriverReportsItIsPrivateToThisProcess(@TempDir Path directory) {
        String reported = ControlPlaneUrl.reportedBy(ControlPlaneDatabases.h2(directory));
        assertTrue(reported != null && ControlPlaneUrl.privateToThisProcess(reported), reported);
    }

    @Test
    void postgresqlAsItsDriverReportsItIsShared() {
        assumeTrue(ControlPlaneDatabases.pgUrl() != null, ControlPlaneDatabases.pgSkipReason());
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(ControlPlaneDatabases.pgUrl());
        String reported = ControlPlaneUrl.reportedBy(dataSource);
        assertTrue(reported != null && reported.startsWith("jdbc:postgresql:"), reported);
        assertFalse(ControlPlaneUrl.privateToThisProcess(reported), reported);
    }

    @Test
    void aDataSourceThatCannotAnswerReportsNoUrl() {
        PGSimpleDataSource unreachable = new PGSimpleDataSource();
        unreachable.setURL("jdbc:postgresql://127.0.0.1:1/none?connectTimeout=2");
        assertNull(ControlPlaneUrl.reportedBy(unreachable));
        assertNull(ControlPlaneUrl.reportedBy(null));
    }

    @Test
    void embeddedH2FormsArePrivate() {
        assertTrue(ControlPlaneUrl.privateToThisProcess("jdbc:h2:file:/var/corpora/control-plane;MODE=PostgreSQL;WRITE_DELAY=0"));
        assertTrue(ControlPlaneUrl.privateToThisProcess("jdbc:h2:./data/control-plane"));
        assertTrue(ControlPlaneUrl.privateToThisProcess("jdbc:h2:mem:tests;DB_CLOSE_DELAY=-1"));
        assertTrue(ControlPlaneUrl.privateToThisProcess(" JDBC:H2:FILE:/x "));
    }

    @Test
    void h2ThatOtherProcessesCanReachIsNot() {
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:h2:tcp://db.internal:9092/control-plane"));
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:h2:ssl://db.internal/control-plane"));
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:h2:file:/x/control-plane;AUTO_SERVER=TRUE"));
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:h2:file:/x/control-plane;auto_server=true;MODE=PostgreSQL"));
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:h2:file:/x/control-plane;FILE_LOCK=NO"));
    }

    @Test
    void otherDatabasesAndUnknownUrlsAreNot() {
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:postgresql://127.0.0.1:5432/corpora"));
        assertFalse(ControlPlaneUrl.privateToThisProcess("jdbc:mariadb://127.0.0.1/corpora?h2=jdbc:h2:mem:x"));
        assertFalse(ControlPlaneUrl.privateToThisProcess(""));
        assertFalse(ControlPlaneUrl.privateToThisProcess(null));
    }
}
