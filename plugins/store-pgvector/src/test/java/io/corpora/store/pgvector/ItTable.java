package io.corpora.store.pgvector;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A test class's own table, registered with {@code @RegisterExtension static final ItTable TABLE = new ItTable("it_x")}:
 * each test requires the database (skipped with the reason and the command when none is configured), and the table is
 * dropped after the class's last test.
 */
final class ItTable implements BeforeEachCallback, AfterAllCallback {

    final String name;

    ItTable(String name) {
        this.name = SqlIdentifier.require("test table", name);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        TestDatabase.url();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        if (TestDatabase.configured()) {
            TestDatabase.dropTable(name);
        }
    }
}
