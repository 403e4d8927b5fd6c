package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shipped Flyway migration, applied by hand to a fresh schema of the real database, serves the store. */
class MigrationIT {

    @Test
    void theMigrationAppliedByHandServesTheStore() throws Exception {
        TestDatabase.url();
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS it_migration CASCADE");
            statement.execute("CREATE SCHEMA it_migration");
            statement.execute("SET search_path = it_migration, public");
            for (String ddl : SchemaStatementsTest.migrationStatements()) {
                statement.execute(ddl);
            }
        }
        try (PgVectorStore store = TestDatabase.open("it_migration.corpora_chunks", Map.of(PgVectorOptions.ENSURE_SCHEMA, "false"))) {
            float[] vector = new float[384];
            Arrays.fill(vector, 0.05f);
            Namespace ns = Namespace.of("migrated");
            store.upsert(ns, List.of(new EmbeddedChunk(new Chunk("c#0", "c", 0, "migrated lodging text", List.of(), Map.of()), vector)));
            assertEquals(1, store.search(ns, SearchRequest.vector(vector, 3, MetadataFilter.all(), null, null)).size());
            assertEquals(1, store.search(ns, SearchRequest.keyword("lodging", 3, MetadataFilter.all(), null, null)).size());
        } finally {
            try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
                statement.execute("DROP SCHEMA IF EXISTS it_migration CASCADE");
            }
        }
    }

}
