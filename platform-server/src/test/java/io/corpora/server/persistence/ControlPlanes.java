package io.corpora.server.persistence;

import io.corpora.testkit.TestFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The control planes a test opens, closed (and their H2 directories deleted) after it, after the test's own
 * {@code @AfterEach} methods. Register with {@code @RegisterExtension final ControlPlanes controlPlanes = new ControlPlanes();}.
 */
public final class ControlPlanes implements AfterEachCallback {

    private final List<ControlPlaneJpa> opened = new ArrayList<>();
    private final List<Path> directories = new ArrayList<>();

    /** A migrated H2 file database in a directory of its own. */
    public ControlPlaneJpa h2() {
        return keep(ControlPlaneJpa.h2(directory()));
    }

    /** {@code "h2"} as {@link #h2()}, or the test PostgreSQL schema; without {@code CORPORA_TEST_PG_URL} the test is skipped. */
    ControlPlaneJpa open(String database) throws Exception {
        return keep(ControlPlaneJpa.open(database, "h2".equals(database) ? directory() : null));
    }

    private ControlPlaneJpa keep(ControlPlaneJpa jpa) {
        opened.add(jpa);
        return jpa;
    }

    private Path directory() {
        try {
            Path directory = Files.createTempDirectory("control-plane-");
            directories.add(directory);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) throws IOException {
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
        for (Path directory : directories) {
            TestFiles.deleteTree(directory);
        }
        directories.clear();
    }
}
