package io.corpora.store.pgvector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.IntFunction;

/**
 * The store's keyword and vector legs on real text, measured by hand (not a unit test): BEIR SciFact's abstracts cut
 * into pieces of four sentences (13,955 rows, about the chunker's 13.8k) in one tenant, and the first 9,000 of them in a
 * second (searched exactly: below {@code exactSearchMaxRows}). The keyword leg runs the first 100 of SciFact's test queries; the vector
 * leg runs stored vectors as queries. The vectors are seeded random (the text is what the keyword leg and the row
 * layout need; the vector legs' cost does not depend on what the vectors mean). Prints the table's heap and TOAST
 * sizes and p50 / mean per leg. An optional third argument, N, adds a third tenant holding N copies of the pieces
 * (7: 97,685 rows, the issue's largest tenant), each copy's ids suffixed, so the keyword leg's cost at scale shows. Two
 * small tenants (the first 220 and 1,500 pieces) show the keyword leg of namespaces within
 * {@link PgVectorStore#KEYWORD_SCAN_MAX_ROWS}. {@code -Dalter="…"} runs {@code ALTER TABLE <table> …} (';' between several)
 * after the store made the table and before any row is written, to compare row layouts, e.g.
 * {@code -Dalter="ALTER COLUMN index_tsv SET STORAGE MAIN; SET (toast_tuple_target = 4080)"}. {@code -DtenantPartitions=scifact,scifact-9k}
 * gives the two large tenants a partition each (the rest share DEFAULT); {@code -Dprepare=ANALYZE} replaces the VACUUM
 * ANALYZE before the queries, so GIN pending lists stay as written (as with autovacuum behind or off).
 *
 * <pre>
 * cd plugins/store-pgvector
 * mvn -q -o test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/measure.classpath
 * CORPORA_TEST_PG_URL=jdbc:postgresql://127.0.0.1:5432/corpora_test?user=postgres \
 *   java -cp "target/test-classes:target/classes:$(cat target/measure.classpath)" \
 *   io.corpora.store.pgvector.SciFactSearchMeasurement ../../../shared/datasets/scifact m_scifact [copies]
 * </pre>
 */
public final class SciFactSearchMeasurement {

    private static final int DIMENSION = 384;
    private static final int SMALLER_TENANT = 9_000;
    /** Tenants whose keyword leg reads their rows ({@link PgVectorStore#KEYWORD_SCAN_MAX_ROWS}): the bench's smallest, and one near the bound. */
    private static final List<Integer> SMALL_TENANTS = List.of(220, 1_500);
    private static final int KEYWORD_QUERIES = 100;
    private static final int VECTOR_QUERIES = 200;
    private static final ObjectMapper JSON = new ObjectMapper();

    private SciFactSearchMeasurement() {}

    public static void main(String[] args) throws Exception {
        Path dataset = Path.of(args[0]);
        String table = args.length > 1 ? args[1] : "m_scifact";
        int copies = args.length > 2 ? Integer.parseInt(args[2]) : 0;
        List<String[]> pieces = pieces(dataset.resolve("corpus.jsonl"));
        List<String> queries = new ArrayList<>();
        for (String line : Files.readAllLines(dataset.resolve("queries.jsonl"))) {
            queries.add(fields(line)[2]);
        }
        TestDatabase.dropTable(table);
        Random random = new Random(19);
        List<float[]> vectors = new ArrayList<>();
        try (PgVectorStore store = TestDatabase.open(table, System.getProperty("tenantPartitions", "").isBlank() ? Map.of()
                : Map.of(PgVectorOptions.TENANT_PARTITIONS, System.getProperty("tenantPartitions")))) {
            String alter = System.getProperty("alter", "").trim();
            if (!alter.isEmpty()) {
                try (var connection = TestDatabase.connect(); var statement = connection.createStatement()) {
                    for (String change : alter.split(";")) {
                        statement.execute("ALTER TABLE " + table + " " + change.trim());
                        System.out.println("ALTER TABLE " + table + " " + change.trim());
                    }
                }
            }
            Namespace all = Namespace.of("scifact");
            Namespace smaller = Namespace.of("scifact-9k");
            List<EmbeddedChunk> chunks = new ArrayList<>();
            for (String[] piece : pieces) {
                float[] vector = unit(random);
                vectors.add(vector);
                chunks.add(new EmbeddedChunk(new Chunk(piece[0] + "#" + piece[1], piece[0], Integer.parseInt(piece[1]), piece[2],
                        List.of(piece[3]), Map.of("source", "scifact/" + piece[0] + ".md", "title", piece[3])), vector));
            }
            long writeStart = System.nanoTime();
            upsertInBatches(store, all, chunks);
            upsertInBatches(store, smaller, chunks.subList(0, SMALLER_TENANT));
            for (int rows : SMALL_TENANTS) {
                upsertInBatches(store, Namespace.of("scifact-" + rows), chunks.subList(0, rows));
            }
            Namespace copied = Namespace.of("scifact-x" + copies);
            for (int copy = 1; copy <= copies; copy++) {
                upsertInBatches(store, copied, copy(chunks, copy));
            }
            System.out.printf("rows %d + %d + %s + %d written in %.1f s%n", pieces.size(), SMALLER_TENANT, SMALL_TENANTS, copies * pieces.size(),
                    (System.nanoTime() - writeStart) / 1e9);
            try (var connection = TestDatabase.connect(); var statement = connection.createStatement()) {
                statement.execute(System.getProperty("prepare", "VACUUM ANALYZE") + " " + table);
                printGinPendingPages(connection, table);
                try (var rows = statement.executeQuery("SELECT pg_size_pretty(pg_relation_size(oid)), pg_size_pretty(pg_relation_size(reltoastrelid)), "
                        + "pg_size_pretty(pg_total_relation_size(oid)) FROM pg_class WHERE oid = '" + table + "'::regclass")) {
                    rows.next();
                    System.out.printf("table %s: heap %s, TOAST %s, with indexes %s%n", table, rows.getString(1), rows.getString(2), rows.getString(3));
                }
            }
            // A short unmeasured round first (the JIT, PostgreSQL's caches), then the measured one.
            for (int round = 0; round < 2; round++) {
                String label = round == 0 ? "(warm-up) " : "";
                int keywordQueries = round == 0 ? 10 : KEYWORD_QUERIES;
                int vectorQueries = round == 0 ? 20 : VECTOR_QUERIES;
                IntFunction<SearchRequest> keyword = q -> SearchRequest.keyword(queries.get(q), 10, MetadataFilter.all(), null, null);
                report(label + "keyword, " + pieces.size() + " rows", keywordQueries, q -> store.search(all, keyword.apply(q)));
                report(label + "keyword, " + SMALLER_TENANT + " rows", keywordQueries, q -> store.search(smaller, keyword.apply(q)));
                for (int rows : SMALL_TENANTS) {
                    Namespace small = Namespace.of("scifact-" + rows);
                    report(label + "keyword, " + rows + " rows", keywordQueries, q -> store.search(small, keyword.apply(q)));
                }
                if (copies > 0) {
                    report(label + "keyword, " + copies * pieces.size() + " rows", keywordQueries, q -> store.search(copied, keyword.apply(q)));
                }
                report(label + "vector exact, " + SMALLER_TENANT + " rows", vectorQueries, q -> store.search(smaller,
                        SearchRequest.vector(vectors.get(q * 37 % SMALLER_TENANT), 10, MetadataFilter.all(), null, null)));
                report(label + "vector HNSW, " + pieces.size() + " rows", vectorQueries, q -> store.search(all,
                        SearchRequest.vector(vectors.get(q * 41 % vectors.size()), 10, MetadataFilter.all(), null, null)));
            }
        }
    }

    /** Pages in each GIN index's pending list, where the pgstattuple extension is installed (a VACUUM empties them). */
    private static void printGinPendingPages(Connection connection, String table) {
        try (var statement = connection.createStatement(); var rows = statement.executeQuery("SELECT c.relname,"
                + " (pgstatginindex(c.oid)).pending_pages FROM pg_class c WHERE c.relkind = 'i' AND c.relam = (SELECT oid FROM pg_am"
                + " WHERE amname = 'gin') AND c.relname LIKE '" + table + "%' ORDER BY 1")) {
            while (rows.next()) {
                System.out.printf("GIN index %s: %d pending pages%n", rows.getString(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            System.out.println("GIN pending pages not read (CREATE EXTENSION pgstattuple to see them): " + e.getMessage());
        }
    }

    private static void upsertInBatches(PgVectorStore store, Namespace namespace, List<EmbeddedChunk> chunks) {
        for (int from = 0; from < chunks.size(); from += 500) {
            store.upsert(namespace, chunks.subList(from, Math.min(chunks.size(), from + 500)));
        }
    }

    /** The chunks with ids and document ids suffixed {@code ~copy}: same texts, metadata and vectors. */
    private static List<EmbeddedChunk> copy(List<EmbeddedChunk> chunks, int copy) {
        return chunks.stream().map(chunk -> {
            Chunk c = chunk.chunk();
            return new EmbeddedChunk(new Chunk(c.id() + "~" + copy, c.documentId() + "~" + copy, c.index(), c.text(), c.headingPath(),
                    c.metadata()), chunk.embedding());
        }).toList();
    }

    private interface Search {
        void run(int query) throws Exception;
    }

    private static void report(String leg, int queries, Search search) throws Exception {
        long[] nanos = new long[queries];
        for (int q = 0; q < queries; q++) {
            long start = System.nanoTime();
            search.run(q);
            nanos[q] = System.nanoTime() - start;
        }
        long total = Arrays.stream(nanos).sum();
        Arrays.sort(nanos);
        System.out.printf("%-34s %4d queries  p50 %8.2f ms  p90 %8.2f ms  mean %8.2f ms%n", leg, queries, nanos[queries / 2] / 1e6,
                nanos[queries * 9 / 10] / 1e6, total / 1e6 / queries);
    }

    /** Each abstract in pieces of four sentences: {document, index, text, title}. */
    private static List<String[]> pieces(Path corpus) throws Exception {
        List<String[]> pieces = new ArrayList<>();
        for (String line : Files.readAllLines(corpus)) {
            String[] doc = fields(line);
            String[] sentences = doc[2].split("(?<=\\. )");
            for (int start = 0, index = 0; start < sentences.length; start += 4, index++) {
                String text = String.join("", Arrays.copyOfRange(sentences, start, Math.min(sentences.length, start + 4)));
                pieces.add(new String[] {doc[0], Integer.toString(index), text, doc[1]});
            }
        }
        return pieces;
    }

    /** {_id, title, text} of one JSON line of a BEIR file (a query has no title: ""). */
    private static String[] fields(String line) throws Exception {
        JsonNode row = JSON.readTree(line);
        return new String[] {row.path("_id").asText(), row.path("title").asText(), row.path("text").asText()};
    }

    private static float[] unit(Random random) {
        float[] v = new float[DIMENSION];
        double norm = 0;
        for (int i = 0; i < DIMENSION; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < DIMENSION; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }
}
