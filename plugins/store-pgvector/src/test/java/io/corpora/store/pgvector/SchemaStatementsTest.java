package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The DDL operators print, the Flyway migration that ships, and the two agreeing. */
class SchemaStatementsTest {

    private static final Path MIGRATIONS = Path.of("..", "..", "migrations", "store-pgvector");

    private static List<String> statements(Map<String, String> options) {
        Map<String, String> all = new java.util.HashMap<>(Map.of(PgVectorOptions.JDBC_URL, "jdbc:postgresql://127.0.0.1:1/none"));
        all.putAll(options);
        return new ChunkSchema(PgVectorStoreProvider.settings(TestDatabase.config(all))).statements(false);
    }

    /** The shipped migrations, {@code V1__…} first, as Flyway orders them. */
    static List<Path> migrations() throws Exception {
        try (Stream<Path> files = Files.list(MIGRATIONS)) {
            return files.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\.sql"))
                    .sorted(Comparator.comparingInt(f -> Integer.parseInt(f.getFileName().toString().replaceAll("^V(\\d+)__.*", "$1"))))
                    .toList();
        }
    }

    /** Every migration's statements in order: comments dropped, split at semicolons, whitespace normalised. */
    static List<String> migrationStatements() throws Exception {
        List<String> statements = new ArrayList<>();
        for (Path migration : migrations()) {
            statements.addAll(statements(migration));
        }
        return statements;
    }

    static List<String> statements(Path migration) throws Exception {
        StringBuilder sql = new StringBuilder();
        for (String line : Files.readAllLines(migration)) {
            if (!line.startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String statement : sql.toString().split(";")) {
            if (!statement.isBlank()) {
                statements.add(normalise(statement));
            }
        }
        return statements;
    }

    private static String normalise(String sql) {
        return sql.trim().replaceAll("\\s+", " ");
    }

    /**
     * The migrations, applied in order, leave what the DDL of the default settings makes: the same statements, but for
     * an index an earlier migration created and a later one drops (the DDL only drops it). {@code MigrationIT} compares
     * the two tables' catalogs in the database.
     */
    @Test
    void theShippedMigrationsAreTheDdlOfTheDefaultSettings() throws Exception {
        assertEquals(List.of("V1__pgvector_chunk_table.sql", "V2__inline_vectors_and_stored_tsvector.sql",
                        "V3__gin_indexes_without_pending_list.sql"),
                migrations().stream().map(f -> f.getFileName().toString()).toList());
        List<String> migrated = migrationStatements();
        Set<String> expected = new HashSet<>(migrated);
        for (String statement : migrated) {
            if (statement.startsWith("DROP INDEX IF EXISTS ")) {
                String index = statement.substring("DROP INDEX IF EXISTS ".length());
                assertTrue(expected.removeIf(s -> s.startsWith("CREATE INDEX IF NOT EXISTS " + index + " ON ")), statement);
            }
            // A storage parameter a later migration sets on an index, the DDL gives the index when it creates it.
            Matcher set = Pattern.compile("ALTER INDEX (\\S+) SET (\\(.*\\))").matcher(statement);
            if (set.matches()) {
                String create = expected.stream().filter(s -> s.startsWith("CREATE INDEX IF NOT EXISTS " + set.group(1) + " ON "))
                        .findFirst().orElseThrow(() -> new AssertionError("no CREATE INDEX before " + statement));
                expected.remove(create);
                expected.add(create + " WITH " + set.group(2));
            }
        }
        List<String> ddl = statements(Map.of()).stream().map(SchemaStatementsTest::normalise).toList();
        assertEquals(ddl.size(), Set.copyOf(ddl).size(), "no statement twice: " + ddl);
        assertEquals(expected, Set.copyOf(ddl));
    }

    @Test
    void theVectorStaysInTheRowAndTheKeywordVectorIsStoredForTheLanguage() {
        List<String> ddl = statements(Map.of(PgVectorOptions.FULL_TEXT_LANGUAGE, "portuguese", PgVectorOptions.TABLE, "rag.chunks",
                PgVectorOptions.COLUMNS, "indexVector=tsv_pt, indexText=body_index"));
        assertTrue(ddl.contains("ALTER TABLE rag.chunks ALTER COLUMN embedding SET STORAGE MAIN"), ddl.toString());
        assertTrue(ddl.contains("ALTER TABLE rag.chunks ADD COLUMN IF NOT EXISTS tsv_pt tsvector GENERATED ALWAYS AS "
                + "(to_tsvector('portuguese'::regconfig, body_index)) STORED"), ddl.toString());
        assertTrue(ddl.contains("CREATE INDEX IF NOT EXISTS chunks_tsv_pt_idx ON rag.chunks USING gin (tsv_pt) WITH (fastupdate = off)"), ddl.toString());
        // the superseded expression index lives in the table's schema
        assertTrue(ddl.contains("DROP INDEX IF EXISTS rag.chunks_fts_portuguese_idx"), ddl.toString());
        // the column is added before its index, and after the table and its partitions
        assertTrue(ddl.indexOf("CREATE INDEX IF NOT EXISTS chunks_tsv_pt_idx ON rag.chunks USING gin (tsv_pt) WITH (fastupdate = off)")
                > ddl.indexOf("ALTER TABLE rag.chunks ADD COLUMN IF NOT EXISTS tsv_pt tsvector GENERATED ALWAYS AS "
                + "(to_tsvector('portuguese'::regconfig, body_index)) STORED"));
    }

    @Test
    void theDdlFollowsMetricWidthLanguageAndColumns() {
        String ddl = String.join(";\n", statements(Map.of(PgVectorOptions.METRIC, "inner", PgVectorOptions.DIMENSION, "768",
                PgVectorOptions.FULL_TEXT_LANGUAGE, "portuguese", PgVectorOptions.TABLE, "rag.chunks",
                PgVectorOptions.COLUMNS, "embedding=vec", PgVectorOptions.HNSW_M, "24", PgVectorOptions.HNSW_EF_CONSTRUCTION, "100")));
        assertTrue(ddl.contains("vec vector(768)"), ddl);
        assertTrue(ddl.contains("CREATE INDEX IF NOT EXISTS chunks_embedding_inner_idx ON rag.chunks USING hnsw (vec vector_ip_ops) "
                + "WITH (m = 24, ef_construction = 100)"), ddl);
        assertTrue(ddl.contains("GENERATED ALWAYS AS (to_tsvector('portuguese'::regconfig, index_text)) STORED"), ddl);
    }

    @Test
    void mixedWidthsGetAnUntypedColumnAndOnePartialIndexPerWidth() {
        String ddl = String.join(";\n", statements(Map.of(PgVectorOptions.DIMENSION, "768, 384", PgVectorOptions.METRIC, "l2")));
        assertTrue(ddl.contains("embedding vector,"), ddl);
        assertTrue(ddl.contains("corpora_chunks_embedding_384_l2_idx ON corpora_chunks USING hnsw ((embedding::vector(384)) vector_l2_ops)"
                + " WITH (m = 16, ef_construction = 64) WHERE vector_dims(embedding) = 384"), ddl);
        assertTrue(ddl.contains("USING hnsw ((embedding::vector(768)) vector_l2_ops) WITH (m = 16, ef_construction = 64)"
                + " WHERE vector_dims(embedding) = 768"), ddl);
    }

    @Test
    void withoutFullTextThereIsNoGinTextIndex() {
        List<String> ddl = statements(Map.of(PgVectorOptions.FULL_TEXT, "false"));
        assertTrue(ddl.stream().noneMatch(s -> s.contains("tsvector") || s.contains("index_tsv") || s.contains("_fts_")), ddl.toString());
        assertTrue(ddl.contains("ALTER TABLE corpora_chunks ALTER COLUMN embedding SET STORAGE MAIN"), ddl.toString());
    }

    @Test
    void printSchemaNeedsNoDatabaseAndPrintsTheSameDdl() {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        List<String> ddl = PrintSchema.statements(Map.of(PgVectorOptions.DIMENSION, "768", PgVectorOptions.METRIC, "l2"), false);
        PrintSchema.print(ddl, new java.io.PrintStream(bytes, true, java.nio.charset.StandardCharsets.UTF_8));
        String printed = bytes.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(statements(Map.of(PgVectorOptions.DIMENSION, "768", PgVectorOptions.METRIC, "l2")), ddl);
        assertTrue(printed.contains("embedding vector(768),") && printed.contains("vector_l2_ops") && printed.endsWith(";\n\n"), printed);
        List<String> concurrently = PrintSchema.statements(Map.of(), true);
        assertTrue(concurrently.stream().filter(s -> s.startsWith("CREATE INDEX")).allMatch(s -> s.startsWith("CREATE INDEX CONCURRENTLY")), concurrently.toString());
        assertTrue(concurrently.contains("DROP INDEX CONCURRENTLY IF EXISTS corpora_chunks_fts_english_idx"), concurrently.toString());
    }

    @Test
    void concurrentlyVariantForPopulatedTables() {
        PgVectorSettings settings = PgVectorStoreProvider.settings(TestDatabase.config(Map.of(PgVectorOptions.JDBC_URL, "jdbc:postgresql://x/y")));
        List<String> concurrently = new ChunkSchema(settings).statements(true);
        assertTrue(concurrently.stream().filter(s -> s.startsWith("CREATE INDEX")).allMatch(s -> s.startsWith("CREATE INDEX CONCURRENTLY IF NOT EXISTS")));
    }

    @Test
    void listedTenantsGetAPartitionEachAndTheRestTheDefaultOne() {
        List<String> ddl = statements(Map.of(PgVectorOptions.TENANT_PARTITIONS, "big, o'brien", PgVectorOptions.TABLE, "rag.chunks"));
        assertTrue(ddl.get(1).startsWith("CREATE TABLE IF NOT EXISTS rag.chunks (") && ddl.get(1).endsWith(") PARTITION BY LIST (tenant)"), ddl.get(1));
        assertEquals(List.of("CREATE TABLE IF NOT EXISTS rag.chunks_tenant_0 PARTITION OF rag.chunks FOR VALUES IN ('big')",
                "CREATE TABLE IF NOT EXISTS rag.chunks_tenant_1 PARTITION OF rag.chunks FOR VALUES IN ('o''brien')",
                "CREATE TABLE IF NOT EXISTS rag.chunks_default PARTITION OF rag.chunks DEFAULT"), ddl.subList(2, 5));
        // the column changes and the indexes follow the partitions, on the parent, so PostgreSQL makes them on every partition
        assertTrue(ddl.subList(5, ddl.size()).stream().allMatch(s -> (s.startsWith("CREATE INDEX IF NOT EXISTS ") && s.contains(" ON rag.chunks "))
                || s.startsWith("ALTER TABLE rag.chunks ") || s.equals("DROP INDEX IF EXISTS rag.chunks_fts_english_idx")
                || s.startsWith("DO $$")), ddl.toString());
        assertTrue(statements(Map.of()).stream().noneMatch(s -> s.contains("PARTITION")));
    }

    /** GIN's pending list is off on a new index, and turned off on an index of an earlier version: on a partitioned table, per partition. */
    @Test
    void ginIndexesHaveNoPendingList() {
        List<String> ddl = statements(Map.of());
        List<String> gin = ddl.stream().filter(s -> s.contains(" USING gin ")).toList();
        assertEquals(2, gin.size(), ddl.toString());
        assertTrue(gin.stream().allMatch(s -> s.endsWith(" WITH (fastupdate = off)")), gin.toString());
        assertTrue(ddl.indexOf("ALTER INDEX corpora_chunks_index_tsv_idx SET (fastupdate = off)")
                > ddl.indexOf(gin.stream().filter(s -> s.contains("index_tsv")).findFirst().orElseThrow()), ddl.toString());
        assertTrue(ddl.contains("ALTER INDEX corpora_chunks_metadata_idx SET (fastupdate = off)"), ddl.toString());
        assertTrue(ddl.stream().noneMatch(s -> s.contains("USING hnsw") && s.contains("fastupdate")), ddl.toString());

        List<String> partitioned = statements(Map.of(PgVectorOptions.TENANT_PARTITIONS, "big", PgVectorOptions.TABLE, "rag.chunks"));
        List<String> perPartition = partitioned.stream().filter(s -> s.startsWith("DO $$")).toList();
        assertEquals(2, perPartition.size(), partitioned.toString());
        assertTrue(perPartition.get(0).contains("to_regclass('rag.chunks_metadata_idx')")
                && perPartition.get(1).contains("to_regclass('rag.chunks_index_tsv_idx')")
                && perPartition.stream().allMatch(s -> s.contains("ALTER INDEX %s SET (fastupdate = off)")), perPartition.toString());
        assertTrue(partitioned.stream().noneMatch(s -> s.startsWith("ALTER INDEX")), partitioned.toString());
    }

    @Test
    void partitionedTablesHaveNoConcurrentlyVariantAndRefuseDuplicateTenants() {
        PgVectorSettings settings = PgVectorStoreProvider.settings(TestDatabase.config(Map.of(PgVectorOptions.JDBC_URL, "jdbc:postgresql://x/y",
                PgVectorOptions.TENANT_PARTITIONS, "a")));
        IllegalStateException concurrently = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> new ChunkSchema(settings).statements(true));
        assertTrue(concurrently.getMessage().contains("CONCURRENTLY"), concurrently.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(io.corpora.spi.config.InvalidConfigException.class,
                () -> statements(Map.of(PgVectorOptions.TENANT_PARTITIONS, "a,a")));
    }
}
