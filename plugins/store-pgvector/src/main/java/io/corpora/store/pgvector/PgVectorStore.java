package io.corpora.store.pgvector;

import com.pgvector.PGvector;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.logging.Logger;

/**
 * A {@link VectorStore} on PostgreSQL + pgvector. One table holds every tenant; tenant, partition, document
 * id and embedder fingerprint are indexed columns always in the {@code WHERE}; metadata is JSONB; the
 * embedding is searched through HNSW with iterative scans, or exactly when the namespace is small.
 *
 * <p>Vector scores are recomputed in Java from the stored vectors (fetched in binary, {@link VectorBytes}) with
 * {@link io.corpora.spi.VectorSimilarity}, so they agree bit for bit with every other store; SQL uses the distance (with a float-rounding slack)
 * to apply {@code minScore} before the {@code LIMIT}, and Java applies it exactly.
 */
public final class PgVectorStore implements VectorStore {

    /** Slack on the SQL distance bound: pgvector computes in float32, the contract score in double. */
    private static final double DISTANCE_SLACK = 1e-5;

    private final PgVectorSettings settings;
    private final ConnectionSource connections;
    /** Searches' replicas (none: the primary serves them); writes and counts always use {@code connections}. */
    private final ReplicaRouting replicas;
    private final Logger logger;
    private final ChunkColumns c;
    private final FilterSql filters;
    private final StopWords stopWords;
    private final boolean iterativeScanSupported;
    private final String selectColumns;
    /**
     * Whether a namespace is within {@code exactSearchMaxRows} (its rows of one embedder: the vector path's choice) or
     * {@link #KEYWORD_SCAN_MAX_ROWS} (all its rows: the keyword path's), as last counted.
     */
    private final NamespaceSizes sizes;

    PgVectorStore(PgVectorSettings settings, ConnectionSource connections, Logger logger) {
        this(settings, connections, ReplicaRouting.none(), logger);
    }

    PgVectorStore(PgVectorSettings settings, ConnectionSource connections, ReplicaRouting replicas, Logger logger) {
        this.settings = settings;
        this.connections = connections;
        this.replicas = replicas;
        this.logger = logger;
        this.c = settings.columns();
        this.filters = new FilterSql(c.metadata());
        this.stopWords = StopWords.of(settings.stopWordLanguages());
        this.sizes = new NamespaceSizes(settings.exactSearchRecheckMillis(), System::nanoTime);
        this.selectColumns = String.join(", ", c.id(), c.document(), c.chunkIndex(), c.text(), c.headings(), c.metadata(),
                VectorBytes.select(c.embedding()));
        try {
            if (settings.ensureSchema()) {
                ensureSchema();
            }
            String version = extensionVersion();
            checkTableExists();
            if (settings.fullText()) {
                checkIndexVectorColumn();
            }
            this.iterativeScanSupported = versionAtLeast(version, 0, 8);
            if (!iterativeScanSupported && settings.iterativeScan() != PgVectorSettings.IterativeScan.OFF) {
                logger.info("pgvector " + version + " has no iterative index scans (needs 0.8); iterativeScan="
                        + settings.iterativeScan().value + " is skipped: filtered searches may return fewer than topK hits");
            }
            checkHealth();
        } catch (RuntimeException e) {
            connections.close();
            replicas.close();
            throw e;
        }
    }

    /** The idempotent DDL for this store's settings, for operators who run migrations by hand. */
    public List<String> schemaStatements() {
        return new ChunkSchema(settings).statements(false);
    }

    /** The same DDL with {@code CREATE INDEX CONCURRENTLY}, for indexing a populated table without blocking writes. */
    public List<String> schemaStatementsConcurrently() {
        return new ChunkSchema(settings).statements(true);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        Set<StoreCapability> capabilities = EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN,
                StoreCapability.RETURNS_EMBEDDINGS);
        if (settings.fullText()) {
            capabilities.add(StoreCapability.KEYWORD_SEARCH);
        }
        return capabilities;
    }

    // ---------------------------------------------------------------------------------------- read-your-writes

    /**
     * The primary's WAL position ({@code pg:<LSN>}) once every write that has returned is in it; null without replicas,
     * where every search reads the primary and sees them all.
     */
    @Override
    public String consistencyToken(Namespace namespace) {
        Objects.requireNonNull(namespace, "namespace");
        if (!replicas.enabled()) {
            return null;
        }
        return query("consistency token", new SqlFragment().sql("SELECT pg_current_wal_lsn()::text"),
                rows -> rows.next() ? new LogPosition(rows.getString(1)).token() : null);
    }

    // ---------------------------------------------------------------------------------------- writes

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        Objects.requireNonNull(namespace, "namespace");
        // Duplicate ids in one call keep the last (ON CONFLICT cannot touch a row twice in one statement).
        Map<String, EmbeddedChunk> byId = new LinkedHashMap<>();
        for (EmbeddedChunk chunk : chunks) {
            byId.remove(chunk.chunk().id());
            byId.put(chunk.chunk().id(), validated(chunk));
        }
        if (byId.isEmpty()) {
            return;
        }
        List<EmbeddedChunk> rows = new ArrayList<>(byId.values());
        write(namespace, "upsert into " + namespace, connection -> {
            for (int from = 0; from < rows.size(); from += settings.upsertBatchSize()) {
                List<EmbeddedChunk> batch = rows.subList(from, Math.min(rows.size(), from + settings.upsertBatchSize()));
                try (PreparedStatement statement = connection.prepareStatement(upsertSql(batch.size()))) {
                    int index = 1;
                    for (EmbeddedChunk row : batch) {
                        index = bindRow(connection, statement, index, namespace, row);
                    }
                    statement.executeUpdate();
                }
            }
            return null;
        });
    }

    private EmbeddedChunk validated(EmbeddedChunk chunk) {
        if (!chunk.hasEmbedding()) {
            if (!settings.nullableEmbeddings()) {
                throw new IllegalArgumentException("chunk '" + chunk.chunk().id() + "' has no embedding; the pgvector store "
                        + "accepts those only with nullableEmbeddings=true");
            }
        } else if (!settings.dimensions().contains(chunk.embedding().length)) {
            throw new IllegalArgumentException("chunk '" + chunk.chunk().id() + "' has a " + chunk.embedding().length
                    + "-dimensional embedding; table " + settings.table() + " holds widths " + settings.dimensions());
        }
        return chunk;
    }

    private String upsertSql(int rows) {
        String columns = String.join(", ", c.tenant(), c.partition(), c.id(), c.document(), c.chunkIndex(), c.embedder(),
                c.text(), c.indexText(), c.headings(), c.metadata(), c.embedding());
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(settings.table()).append(" (").append(columns).append(") VALUES ");
        for (int i = 0; i < rows; i++) {
            sql.append(i == 0 ? "" : ", ").append("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::vector)");
        }
        sql.append(" ON CONFLICT (").append(c.tenant()).append(", ").append(c.partition()).append(", ").append(c.id())
                .append(") DO UPDATE SET ");
        List<String> updates = new ArrayList<>();
        for (String column : List.of(c.document(), c.chunkIndex(), c.embedder(), c.text(), c.indexText(), c.headings(),
                c.metadata(), c.embedding())) {
            updates.add(column + " = EXCLUDED." + column);
        }
        return sql.append(String.join(", ", updates)).toString();
    }

    private static int bindRow(Connection connection, PreparedStatement statement, int index, Namespace namespace, EmbeddedChunk row)
            throws SQLException {
        Chunk chunk = row.chunk();
        Object embedder = chunk.metadata().get(ReservedKeys.EMBEDDER);
        statement.setString(index++, namespace.tenant());
        statement.setString(index++, namespace.partitionKey());
        statement.setString(index++, chunk.id());
        statement.setString(index++, chunk.documentId());
        statement.setInt(index++, chunk.index());
        statement.setString(index++, embedder == null ? null : embedder.toString());
        statement.setString(index++, chunk.text());
        statement.setString(index++, row.indexText());
        statement.setArray(index++, connection.createArrayOf("text", chunk.headingPath().toArray()));
        statement.setString(index++, MetadataJson.write(chunk.metadata()));
        if (row.hasEmbedding()) {
            statement.setObject(index++, new PGvector(row.embedding()));
        } else {
            statement.setNull(index++, Types.OTHER);
        }
        return index;
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return 0;
        }
        String[] ids = new LinkedHashSet<>(chunkIds).toArray(String[]::new);
        return write(namespace, "delete chunks of " + namespace, connection -> {
            SqlFragment sql = new SqlFragment().sql("DELETE FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                    .sql(" AND " + c.id() + " = ANY(").bind(connection.createArrayOf("text", ids)).sql(")");
            return executeUpdate(connection, sql);
        });
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        SqlFragment sql = new SqlFragment().sql("DELETE FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                .sql(" AND " + c.document() + " = ").bind(documentId);
        return write(namespace, "delete document of " + namespace, connection -> executeUpdate(connection, sql));
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        SqlFragment sql = new SqlFragment().sql("DELETE FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                .sql(" AND ").append(filters.compile(filter));
        return write(namespace, "delete by filter in " + namespace, connection -> executeUpdate(connection, sql));
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        SqlFragment sql = new SqlFragment().sql("DELETE FROM " + settings.table() + " WHERE ").append(inNamespace(namespace));
        write(namespace, "delete namespace " + namespace, connection -> executeUpdate(connection, sql));
    }

    /** Every row of the tenant in this store's table, whatever its partition. */
    @Override
    public boolean deleteTenant(String tenantId) {
        SqlFragment sql = new SqlFragment().sql("DELETE FROM " + settings.table() + " WHERE " + c.tenant() + " = ").bind(tenantId);
        try {
            inTransaction("delete tenant " + tenantId, connection -> executeUpdate(connection, sql));
        } finally {
            sizes.forgetTenant(tenantId);
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------- reads

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        SqlFragment sql = new SqlFragment().sql("SELECT " + selectColumns + " FROM " + settings.table() + " WHERE ")
                .append(inNamespace(namespace)).sql(" AND " + c.document() + " = ").bind(documentId)
                .sql(" ORDER BY " + c.chunkIndex() + ", " + c.id() + " COLLATE \"C\"");
        return query("read document of " + namespace, sql, rows -> {
            List<Chunk> chunks = new ArrayList<>();
            while (rows.next()) {
                chunks.add(readChunk(rows));
            }
            return chunks;
        });
    }

    /** Read from the primary, like every read but searches: a relocation copies what was acknowledged. */
    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        Objects.requireNonNull(namespace, "namespace");
        if (chunkIds.isEmpty()) {
            return Optional.of(Map.of());
        }
        String[] ids = new LinkedHashSet<>(chunkIds).toArray(String[]::new);
        return Optional.of(inTransaction("read vectors of " + namespace, connection -> {
            SqlFragment sql = new SqlFragment().sql("SELECT " + c.id() + ", " + VectorBytes.select(c.embedding()) + " FROM "
                    + settings.table() + " WHERE ")
                    .append(inNamespace(namespace)).sql(" AND " + c.embedding() + " IS NOT NULL AND " + c.id() + " = ANY(")
                    .bind(connection.createArrayOf("text", ids)).sql(")");
            Map<String, float[]> vectors = new LinkedHashMap<>();
            try (PreparedStatement statement = connection.prepareStatement(sql.text())) {
                sql.bindTo(statement, 1);
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        vectors.put(rows.getString(1), VectorBytes.decode(rows.getBytes(2)));
                    }
                }
            }
            return vectors;
        }));
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        SqlFragment sql = new SqlFragment().sql("SELECT " + selectColumns + " FROM " + settings.table() + " WHERE ")
                .append(inNamespace(namespace));
        if (afterId != null) {
            sql.sql(" AND " + c.id() + " COLLATE \"C\" > ").bind(afterId);
        }
        sql.sql(" ORDER BY " + c.id() + " COLLATE \"C\" LIMIT ").bind(limit + 1);
        return query("list " + namespace, sql, rows -> {
            List<Chunk> chunks = new ArrayList<>();
            while (rows.next()) {
                chunks.add(readChunk(rows));
            }
            if (chunks.size() <= limit) {
                return new ChunkPage(chunks, null);
            }
            List<Chunk> page = chunks.subList(0, limit);
            return new ChunkPage(page, page.get(limit - 1).id());
        });
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        SqlFragment sql = new SqlFragment().sql("SELECT count(*) FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                .sql(" AND ").append(filters.compile(filter));
        return query("count " + namespace, sql, rows -> {
            rows.next();
            return rows.getLong(1);
        });
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        Objects.requireNonNull(namespace, "namespace");
        if (request.mode() == SearchMode.KEYWORD) {
            if (!settings.fullText()) {
                throw new UnsupportedOperationException("keyword search needs fullText=true on the pgvector store (table " + settings.table() + ")");
            }
            return keywordSearch(namespace, request);
        }
        return vectorSearch(namespace, request);
    }

    private List<ScoredChunk> vectorSearch(Namespace namespace, SearchRequest request) {
        float[] query = request.vector();
        int width = query.length;
        if (!settings.dimensions().contains(width)) {
            throw new IllegalArgumentException("query vector has " + width + " dimensions; table " + settings.table()
                    + " holds widths " + settings.dimensions());
        }
        DistanceMetric metric = settings.metric();
        // Over-fetch a little so exact ties at the cut are resolved by chunk id, as the contract orders them.
        int candidates = Math.min(request.topK() * 2, request.topK() + 100);
        PGvector bound = new PGvector(query);

        SqlFragment where = new SqlFragment().append(inNamespace(namespace)).sql(" AND " + c.embedding() + " IS NOT NULL");
        if (settings.mixedDimensions()) {
            // A literal width (an int), so the planner matches the partial HNSW index of this width.
            where.sql(" AND vector_dims(" + c.embedding() + ") = " + width);
        }
        if (request.embedderId() != null) {
            where.sql(" AND " + c.embedder() + " = ").bind(request.embedderId());
        }
        if (!request.filter().isMatchAll()) {
            where.sql(" AND ").append(filters.compile(request.filter()));
        }
        if (request.minScore() != null) {
            double maxDistance = metric.maxDistance(request.minScore());
            if (maxDistance != Double.POSITIVE_INFINITY) {
                double slack = DISTANCE_SLACK * (1 + Math.abs(maxDistance));
                where.sql(" AND ").append(distance(bound, width)).sql(" <= ").bind(maxDistance + slack);
            }
        }

        return read("vector search in " + namespace, request.consistencyToken(), connection -> {
            // Candidates are chosen by id and distance alone, then read in full by primary key. In the scan, the select
            // list (text, metadata, the vector Java scores) was computed for every row of the namespace whenever the
            // planner sorts instead of walking the index, as every exact search does: 4 of a 220-row tenant's 5.5 ms.
            SqlFragment sql = new SqlFragment();
            SqlFragment searchSettings;
            SqlFragment scored = new SqlFragment().sql("SELECT " + c.id() + ", ").append(distance(bound, width))
                    .sql(" AS distance FROM " + settings.table() + " WHERE ").append(where);
            if (searchExactly(connection, namespace, request.embedderId())) {
                // MATERIALIZED keeps the planner off the HNSW index: the namespace's rows are compared one by one.
                searchSettings = new SqlFragment();
                sql.sql("WITH candidates AS MATERIALIZED (").append(scored).sql(") ");
            } else {
                // The index scan explores the search breadth; an iterative scan in relaxed order returns its rows only
                // roughly nearest first, and MATERIALIZED keeps the planner from taking that order as exact (it would
                // stop after the first rows), so the nearest are chosen among all it explored.
                int breadth = Math.max(candidates, settings.searchBreadth(request.topK()));
                searchSettings = indexScanSettings(breadth);
                sql.sql("WITH candidates AS MATERIALIZED (").append(scored).sql(" ORDER BY distance LIMIT ").bind(breadth).sql(") ");
            }
            SqlFragment nearest = new SqlFragment().sql("SELECT " + c.id() + " FROM candidates ORDER BY distance LIMIT ").bind(candidates);
            sql.sql("SELECT " + selectColumns + " FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                    .sql(" AND " + c.id() + " IN (").append(nearest).sql(")");
            return rankExactly(connection, searchSettings, sql, request, metric);
        });
    }

    /** {@code (embedding <op> ?::vector)}, spelled as the HNSW index of this width expects. */
    private SqlFragment distance(PGvector query, int width) {
        String cast = settings.mixedDimensions() ? "vector(" + width + ")" : "vector";
        return new SqlFragment().sql("(" + ChunkSchema.indexedEmbedding(settings, width) + " " + settings.metric().operator + " ")
                .bind(query, cast).sql(")");
    }

    /** Runs the search with its settings ({@link #search}) and scores its rows in Java. */
    private List<ScoredChunk> rankExactly(Connection connection, SqlFragment searchSettings, SqlFragment sql, SearchRequest request,
            DistanceMetric metric) throws SQLException {
        float[] query = request.vector();
        List<ScoredChunk> hits = search(connection, searchSettings, sql, rows -> {
            List<ScoredChunk> scored = new ArrayList<>();
            while (rows.next()) {
                float[] stored = VectorBytes.decode(rows.getBytes(7));
                double score = metric.similarity.score(query, stored);
                if (request.minScore() == null || score >= request.minScore()) {
                    scored.add(new ScoredChunk(readChunk(rows), score, request.includeEmbeddings() ? stored : null));
                }
            }
            return scored;
        });
        hits.sort(BY_SCORE_THEN_ID);
        return hits.size() > request.topK() ? List.copyOf(hits.subList(0, request.topK())) : hits;
    }

    private static final Comparator<ScoredChunk> BY_SCORE_THEN_ID =
            Comparator.comparingDouble(ScoredChunk::score).reversed().thenComparing(hit -> hit.chunk().id());

    /** Whether the namespace is within {@code exactSearchMaxRows}: remembered for a while, else counted. */
    private boolean searchExactly(Connection connection, Namespace namespace, String embedderId) throws SQLException {
        return settings.exactSearchMaxRows() > 0 && within(connection, namespace, embedderId, settings.exactSearchMaxRows());
    }

    /**
     * Whether the namespace's rows (of {@code embedderId}; all of them for null) are at most {@code maxRows}: remembered
     * in {@link #sizes}, else counted.
     */
    private boolean within(Connection connection, Namespace namespace, String embedderId, int maxRows) throws SQLException {
        Boolean known = sizes.isWithin(namespace, embedderId, maxRows);
        if (known != null) {
            return known;
        }
        long writes = sizes.writesSoFar();
        boolean within = countsAtMost(connection, namespace, embedderId, maxRows);
        sizes.remember(namespace, embedderId, maxRows, within, writes);
        return within;
    }

    private boolean countsAtMost(Connection connection, Namespace namespace, String embedderId, int maxRows) throws SQLException {
        SqlFragment sql = new SqlFragment().sql("SELECT count(*) FROM (SELECT 1 FROM " + settings.table() + " WHERE ")
                .append(inNamespace(namespace));
        if (embedderId != null) {
            sql.sql(" AND " + c.embedder() + " = ").bind(embedderId);
        }
        sql.sql(" LIMIT ").bind(maxRows + 1).sql(") bounded");
        try (PreparedStatement statement = connection.prepareStatement(sql.text())) {
            sql.bindTo(statement, 1);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1) <= maxRows;
            }
        }
    }

    /** The HNSW search parameters of this query, as transaction-local set_config calls with bound values ({@link #search}). */
    private SqlFragment indexScanSettings(int breadth) {
        int efSearch = Math.min(PgVectorSettings.MAX_EF_SEARCH, Math.max(settings.efSearch(), breadth));
        SqlFragment sql = new SqlFragment().sql("set_config('hnsw.ef_search', ").bind(Integer.toString(efSearch)).sql(", true)");
        if (iterativeScanSupported) {
            sql.sql(", set_config('hnsw.iterative_scan', ").bind(settings.iterativeScan().value)
                    .sql(", true), set_config('hnsw.max_scan_tuples', ").bind(Integer.toString(settings.maxScanTuples())).sql(", true)");
        }
        return sql;
    }

    private List<ScoredChunk> keywordSearch(Namespace namespace, SearchRequest request) {
        KeywordQuery query = KeywordQuery.parse(request.text(), stopWords);
        if (query.isEmpty()) {
            return List.of();
        }
        return read("keyword search in " + namespace, request.consistencyToken(), connection -> {
            boolean small = keywordPlain(query) && within(connection, namespace, null, KEYWORD_SCAN_MAX_ROWS);
            return search(connection, new SqlFragment(), keywordSql(namespace, request, query, small), rows -> {
                List<ScoredChunk> hits = new ArrayList<>();
                while (rows.next()) {
                    float[] stored = request.includeEmbeddings() ? VectorBytes.decode(rows.getBytes(7)) : null;
                    hits.add(new ScoredChunk(readChunk(rows), rows.getDouble("score"), stored));
                }
                return hits;
            });
        });
    }

    /**
     * Below this many rows a namespace's plain-term keyword query reads each row's tsvector once
     * ({@link #keywordSqlFromNamespace}) instead of each term's GIN postings: measured 1.5–2.5× faster at 220–1,571
     * rows of a shared table, 3× slower at 5,500 (store README, "The keyword leg of a small tenant").
     */
    static final int KEYWORD_SCAN_MAX_ROWS = 2000;

    /**
     * The keyword query: BM25-style summed IDF of the query words a row holds, {@code ts_rank_cd} (normalization 32, so
     * in [0, 1)) times 10⁻⁴ as tie-breaker, then ties by id. Three statements give that one ranking:
     * <ul>
     *   <li>plain terms matched as any of them (the default), in a namespace of more than {@link #KEYWORD_SCAN_MAX_ROWS}
     *       rows: {@link #keywordSqlFromPostings}, which reads the GIN index's answer per term and no row's tsvector but
     *       the few that can reach the top;</li>
     *   <li>the same in a smaller namespace: {@link #keywordSqlFromNamespace}, which reads each row's tsvector once;</li>
     *   <li>phrases, exclusions or {@code anyTermFallback=false}: {@link #keywordSqlPerRow}, which tests the match
     *       against every candidate row's tsvector.</li>
     * </ul>
     */
    SqlFragment keywordSql(Namespace namespace, SearchRequest request, KeywordQuery query, boolean smallNamespace) {
        if (!keywordPlain(query)) {
            return keywordSqlPerRow(namespace, request, query);
        }
        return smallNamespace ? keywordSqlFromNamespace(namespace, request, query) : keywordSqlFromPostings(namespace, request, query);
    }

    /** Plain terms, any of which a row must hold: the two statements that sum (term, row) pairs can rank it. */
    private boolean keywordPlain(KeywordQuery query) {
        return settings.anyTermFallback() && !query.hasConstraints();
    }

    /**
     * Plain terms, rows holding any of them. A row's IDF sum is added up from the (term, row) pairs the GIN index
     * returns for each term — the same pairs give each term's document frequency — so no tsvector is read for it.
     * Only rows whose sum is within 2·10⁻⁴ of the k-th best sum are then read for the tie-break: any other row's score,
     * below its sum plus 10⁻⁴, is under k rows' scores, so it cannot be returned (the 10⁻⁴ more covers rounding).
     * The weights are {@code numeric}, whose sums are exact in any order, so every statement gives a row the same score.
     * CTE columns are quoted mixed-case names, which no physical column ({@link SqlIdentifier}: lower case) can take.
     */
    SqlFragment keywordSqlFromPostings(Namespace namespace, SearchRequest request, KeywordQuery query) {
        SqlFragment pairs = new SqlFragment().sql("pairs AS MATERIALIZED (SELECT terms.\"Term\", hit.\"Row\", hit.\"Eligible\" FROM terms"
                        + " CROSS JOIN LATERAL (SELECT " + c.id() + " AS \"Row\", ").append(eligible(request))
                .sql(" AS \"Eligible\" FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                .sql(" AND " + c.indexVector() + " @@ terms.\"Query\") hit)");
        return keywordSqlFromPairs(namespace, request, query, pairs, namespaceCount(namespace));
    }

    /**
     * As {@link #keywordSqlFromPostings}, but the pairs come from the namespace's rows, each tsvector read once (the
     * concatenation makes a detoasted copy the terms are tested against): in a small namespace of a shared table the
     * planner filters the tenant's rows anyway, and tested each term against the row's tsvector fetched out of TOAST again.
     * The rows read for the pairs are every row of the namespace, so they give its total too.
     */
    SqlFragment keywordSqlFromNamespace(Namespace namespace, SearchRequest request, KeywordQuery query) {
        SqlFragment pairs = new SqlFragment().sql("namespace_rows AS MATERIALIZED (SELECT " + c.id() + " AS \"Row\", ").append(eligible(request))
                .sql(" AS \"Eligible\", " + c.indexVector() + " || ''::tsvector AS \"Vector\" FROM " + settings.table() + " WHERE ")
                .append(inNamespace(namespace))
                .sql("), pairs AS MATERIALIZED (SELECT terms.\"Term\", namespace_rows.\"Row\", namespace_rows.\"Eligible\""
                        + " FROM namespace_rows JOIN terms ON namespace_rows.\"Vector\" @@ terms.\"Query\")");
        return keywordSqlFromPairs(namespace, request, query, pairs, new SqlFragment().sql("SELECT count(*) AS n FROM namespace_rows"));
    }

    /** Every row of the namespace holding a term counts for its document frequency; only eligible ones are ranked. */
    private SqlFragment eligible(SearchRequest request) {
        SqlFragment conditions = hitConditions(request);
        return conditions.isEmpty() ? new SqlFragment().sql("true") : new SqlFragment().sql("(").append(conditions).sql(")");
    }

    /**
     * The ranking of {@link #keywordSqlFromPostings} from a {@code pairs("Term", "Row", "Eligible")} CTE (with any CTE it
     * needs before it) and {@code total}, a query of the namespace's row count as {@code n}.
     */
    private SqlFragment keywordSqlFromPairs(Namespace namespace, SearchRequest request, KeywordQuery query, SqlFragment pairs,
                                            SqlFragment total) {
        String cfg = settings.textSearchConfig();
        String tsv = c.indexVector();
        List<String> terms = query.terms();
        SqlFragment sql = termsCte(cfg, terms);
        sql.sql("), ").append(pairs).sql(", total AS MATERIALIZED (").append(total)
                .sql("), idf AS MATERIALIZED (SELECT terms.\"Term\", " + idf("total.n", "count(pairs.\"Row\")") + " AS \"Weight\""
                        + " FROM terms CROSS JOIN total LEFT JOIN pairs ON pairs.\"Term\" = terms.\"Term\" GROUP BY terms.\"Term\", total.n)"
                        + ", sums AS MATERIALIZED (SELECT pairs.\"Row\", sum(idf.\"Weight\") AS \"Sum\""
                        + " FROM pairs JOIN idf ON idf.\"Term\" = pairs.\"Term\" WHERE pairs.\"Eligible\" GROUP BY pairs.\"Row\")"
                        + ", cut AS MATERIALIZED (SELECT min(best.\"Sum\") - 0.0002 AS \"Sum\" FROM (SELECT sums.\"Sum\" FROM sums"
                        + " ORDER BY sums.\"Sum\" DESC LIMIT ").bind(request.topK()).sql(") best)");
        SqlFragment match = anyTermMatch(cfg, terms);
        sql.sql(", hits AS (SELECT " + selectColumns + ", sums.\"Sum\" + 0.0001 * ts_rank_cd(" + tsv + ", ").append(match)
                .sql(", 32) AS score FROM sums JOIN " + settings.table() + " ON ").append(inNamespace(namespace))
                .sql(" AND " + c.id() + " = sums.\"Row\" WHERE sums.\"Sum\" >= (SELECT cut.\"Sum\" FROM cut))");
        return ranked(sql, request);
    }

    /**
     * Phrases, exclusions or every term required: the match is tested on each candidate row's tsvector, and each
     * matching row's IDF sum by testing it against each scored word. {@code total}, {@code df} and {@code idf} are
     * MATERIALIZED: inlined (PostgreSQL's default for a CTE used once) the document-frequency counts ran again for
     * every matching row, quadratic in the tenant's chunks whenever the planner filters by tenant instead of the GIN
     * index, as it does on a table not yet analyzed (a relocation's fresh target: 10 s per query at 350 chunks).
     */
    SqlFragment keywordSqlPerRow(Namespace namespace, SearchRequest request, KeywordQuery query) {
        String cfg = settings.textSearchConfig();
        String tsv = c.indexVector();
        SqlFragment sql = termsCte(cfg, query.scoredWords());
        sql.sql("), total AS MATERIALIZED (").append(namespaceCount(namespace))
                .sql("), df AS MATERIALIZED (SELECT terms.\"Query\", (SELECT count(*) FROM " + settings.table() + " WHERE ").append(inNamespace(namespace))
                .sql(" AND " + tsv + " @@ terms.\"Query\") AS n FROM terms), idf AS MATERIALIZED (SELECT df.\"Query\", " + idf("total.n", "df.n")
                        + " AS \"Weight\" FROM total, df)");

        // The match: any plain term (or all of them, strictly), and always the phrases and exclusions.
        SqlFragment match = new SqlFragment();
        if (!settings.anyTermFallback()) {
            match.sql("websearch_to_tsquery(" + cfg + ", ").bind(query.strictText()).sql(")");
        } else {
            if (!query.terms().isEmpty()) {
                match.append(anyTermMatch(cfg, query.terms()));
            }
            if (query.hasConstraints()) {
                match.sql(match.isEmpty() ? "" : " && ").sql("websearch_to_tsquery(" + cfg + ", ").bind(query.constraintText()).sql(")");
            }
        }

        sql.sql(", hits AS (SELECT " + selectColumns + ", (SELECT coalesce(sum(idf.\"Weight\"), 0) FROM idf WHERE " + tsv
                        + " @@ idf.\"Query\") + 0.0001 * ts_rank_cd(" + tsv + ", ").append(match).sql(", 32) AS score FROM " + settings.table()
                        + " WHERE ").append(inNamespace(namespace)).sql(" AND " + tsv + " @@ (").append(match).sql(")");
        SqlFragment conditions = hitConditions(request);
        if (!conditions.isEmpty()) {
            sql.sql(" AND ").append(conditions);
        }
        sql.sql(")");
        return ranked(sql, request);
    }

    /** {@code WITH terms("Term", "Query") AS (VALUES (0, plainto_tsquery(…)), …}, left open for the next CTE. */
    private static SqlFragment termsCte(String cfg, List<String> words) {
        SqlFragment sql = new SqlFragment().sql("WITH terms(\"Term\", \"Query\") AS (VALUES ");
        for (int i = 0; i < words.size(); i++) {
            sql.sql((i == 0 ? "(" : ", (") + i + ", plainto_tsquery(" + cfg + ", ").bind(words.get(i)).sql("))");
        }
        return sql;
    }

    /** BM25's IDF, {@code ln(1 + (N − df + 0.5) / (df + 0.5))}, of two SQL expressions. */
    private static String idf(String total, String df) {
        return "ln(1 + (" + total + " - " + df + " + 0.5) / (" + df + " + 0.5))";
    }

    private SqlFragment namespaceCount(Namespace namespace) {
        return new SqlFragment().sql("SELECT count(*) AS n FROM " + settings.table() + " WHERE ").append(inNamespace(namespace));
    }

    /** Any of the terms, as one tsquery. */
    private static SqlFragment anyTermMatch(String cfg, List<String> terms) {
        SqlFragment match = new SqlFragment().sql("(");
        for (int i = 0; i < terms.size(); i++) {
            match.sql(i == 0 ? "" : " || ").sql("plainto_tsquery(" + cfg + ", ").bind(terms.get(i)).sql(")");
        }
        return match.sql(")");
    }

    /** What a keyword hit must satisfy beyond its namespace and the match: the embedder and the filter; empty if nothing. */
    private SqlFragment hitConditions(SearchRequest request) {
        SqlFragment conditions = new SqlFragment();
        if (request.embedderId() != null) {
            conditions.sql(c.embedder() + " = ").bind(request.embedderId());
        }
        if (!request.filter().isMatchAll()) {
            conditions.sql(conditions.isEmpty() ? "" : " AND ").append(filters.compile(request.filter()));
        }
        return conditions;
    }

    /** The {@code hits} CTE's rows above the minimum score, best first, ties by id, the top k. */
    private SqlFragment ranked(SqlFragment withHits, SearchRequest request) {
        withHits.sql(" SELECT * FROM hits");
        if (request.minScore() != null) {
            withHits.sql(" WHERE score >= ").bind(request.minScore());
        }
        return withHits.sql(" ORDER BY score DESC, " + c.id() + " COLLATE \"C\" LIMIT ").bind(request.topK());
    }

    // ---------------------------------------------------------------------------------------- plumbing

    private SqlFragment inNamespace(Namespace namespace) {
        return new SqlFragment().sql(c.tenant() + " = ").bind(namespace.tenant()).sql(" AND " + c.partition() + " = ")
                .bind(namespace.partitionKey());
    }

    private Chunk readChunk(ResultSet rows) throws SQLException {
        Array headings = rows.getArray(5);
        List<String> headingPath = headings == null ? List.of() : Arrays.asList((String[]) headings.getArray());
        return new Chunk(rows.getString(1), rows.getString(2), rows.getInt(3), rows.getString(4), headingPath,
                MetadataJson.read(rows.getString(6)));
    }

    private static int executeUpdate(Connection connection, SqlFragment sql) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql.text())) {
            sql.bindTo(statement, 1);
            return statement.executeUpdate();
        }
    }

    @FunctionalInterface
    private interface SqlWork<T> {
        T run(Connection connection) throws SQLException;
    }

    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet rows) throws SQLException;
    }

    private <T> T query(String what, SqlFragment sql, RowReader<T> reader) {
        try (Connection connection = connections.open();
             PreparedStatement statement = connection.prepareStatement(sql.text())) {
            sql.bindTo(statement, 1);
            try (ResultSet rows = statement.executeQuery()) {
                return reader.read(rows);
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * A search: on a replica when one is usable (and, given a consistency token, has replayed past it), retried on the
     * primary if the replica fails at the connection level. In autocommit: a search is one statement, or one pipeline of
     * them sent together, so a transaction of its own would only add round trips (BEGIN rides along, COMMIT does not).
     */
    private <T> T read(String what, String consistencyToken, SqlWork<T> work) {
        if (replicas.enabled()) {
            Optional<ReplicaRouting.Routed> routed = replicas.open(issued(LogPosition.parse(consistencyToken)));
            if (routed.isPresent()) {
                try (Connection connection = routed.get().connection()) {
                    return work.run(connection);
                } catch (SQLException e) {
                    if (!ReplicaRouting.isReplicaFailure(e)) {
                        throw failure(what, e);
                    }
                    replicas.failed(routed.get(), e);
                }
            }
        }
        try (Connection connection = connections.open()) {
            return work.run(connection);
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    /**
     * The position, once the primary has reached it: a token ahead of the primary's log was never issued by it (forged,
     * or of another cluster), and waiting on the replicas for it would hold a thread and their connections for the whole
     * {@code consistencyWaitMillis} of every search. One primary query per token-carrying search.
     */
    private LogPosition issued(LogPosition position) {
        if (position == null) {
            return null;
        }
        Boolean reached = query("consistency token", new SqlFragment().sql("SELECT pg_current_wal_lsn() >= ").bind(position.lsn(), "pg_lsn"),
                rows -> rows.next() && rows.getBoolean(1));
        if (!reached) {
            throw new InvalidInputException("consistency token " + position.token() + " is ahead of this store's log: it was not issued by"
                    + " this store (send the token an ingest of this tenant answered)");
        }
        return position;
    }

    /**
     * Runs a search: {@code sql} after one statement of transaction-local set_config calls — {@code searchSettings} (none, or
     * comma-separated calls) and always a plan made for this search's values — in one round trip. The settings last
     * until the end of the pipeline's implicit transaction, so they apply to this query alone, with or without
     * autocommit. The plan: the driver prepares a statement on the server from its fifth run, and PostgreSQL's plan
     * cache may then switch to a generic plan, which estimates {@code tenant = $1} at the average tenant; for a large
     * tenant sharing the table with many small ones that plan reads all its rows through a B-tree index — a vector
     * search sorts them all instead of walking the HNSW index (GenericPlanIT).
     */
    private static <T> T search(Connection connection, SqlFragment searchSettings, SqlFragment sql, RowReader<T> reader) throws SQLException {
        SqlFragment both = new SqlFragment().sql("SELECT set_config('plan_cache_mode', 'force_custom_plan', true)");
        if (!searchSettings.isEmpty()) {
            both.sql(", ").append(searchSettings);
        }
        both.sql("; ").append(sql);
        try (PreparedStatement statement = connection.prepareStatement(both.text())) {
            both.bindTo(statement, 1);
            statement.execute();
            statement.getMoreResults();
            try (ResultSet rows = statement.getResultSet()) {
                return reader.read(rows);
            }
        }
    }

    /** A write to one namespace; its remembered size is forgotten even if the outcome is unknown (a failed commit). */
    private <T> T write(Namespace namespace, String what, SqlWork<T> work) {
        try {
            return inTransaction(what, work);
        } finally {
            sizes.forget(namespace);
        }
    }

    private <T> T inTransaction(String what, SqlWork<T> work) {
        try (Connection connection = connections.open()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw failure(what, e);
        }
    }

    private PgVectorStoreException failure(String what, SQLException e) {
        return new PgVectorStoreException("pgvector store (table " + settings.table() + "): " + what + " failed: "
                + e.getMessage() + " [SQLState " + e.getSQLState() + "]", e);
    }

    private void ensureSchema() {
        inTransaction("ensure schema", connection -> {
            try (Statement statement = connection.createStatement()) {
                // Serialise concurrent starters: CREATE ... IF NOT EXISTS races on the catalog otherwise.
                statement.execute("SELECT pg_advisory_xact_lock(hashtext('corpora-pgvector-schema'))");
                for (ChunkSchema.Ddl ddl : new ChunkSchema(settings).ddl(false)) {
                    if (!alreadyDone(statement, ddl)) {
                        statement.execute(ddl.sql());
                    }
                }
            }
            return null;
        });
    }

    private static boolean alreadyDone(Statement statement, ChunkSchema.Ddl ddl) throws SQLException {
        if (ddl.alreadyDone() == null) {
            return false;
        }
        try (ResultSet rows = statement.executeQuery(ddl.alreadyDone())) {
            return rows.next() && rows.getBoolean(1);
        }
    }

    private String extensionVersion() {
        String version = query("read the pgvector version", new SqlFragment().sql("SELECT extversion FROM pg_extension WHERE extname = 'vector'"),
                rows -> rows.next() ? rows.getString(1) : null);
        if (version == null) {
            throw new PgVectorStoreException("the vector extension is not installed in the database of table " + settings.table()
                    + ": run the store-pgvector migration (or CREATE EXTENSION vector), or start once with ensureSchema=true", null);
        }
        return version;
    }

    static boolean versionAtLeast(String version, int major, int minor) {
        String[] parts = version.split("[.-]");
        try {
            int ma = Integer.parseInt(parts[0]);
            int mi = parts.length > 1 ? Integer.parseInt(parts[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** A table that is not there is said so (it was reported as a table missing its keyword column). */
    private void checkTableExists() {
        boolean exists = query("look up the chunk table", new SqlFragment().sql("SELECT to_regclass(").bind(settings.table()).sql(") IS NOT NULL"),
                rows -> rows.next() && rows.getBoolean(1));
        if (!exists) {
            throw new PgVectorStoreException("table " + settings.table() + " does not exist: apply migrations/store-pgvector/ (or the DDL of"
                    + " PgVectorStore.schemaStatements()), or start once with ensureSchema=true", null);
        }
    }

    /**
     * The keyword leg reads the stored tsvector column: refuses to open on a table without it, or with one computed for
     * another language (the searches would match words stemmed one way against text stemmed another).
     */
    private void checkIndexVectorColumn() {
        String expected = ChunkSchema.tsvectorExpression(settings);
        String column = c.indexVector();
        String[] found = query("read the keyword column's definition", new SqlFragment()
                .sql("SELECT a.attgenerated::text, pg_get_expr(d.adbin, d.adrelid) FROM pg_attribute a LEFT JOIN pg_attrdef d"
                        + " ON d.adrelid = a.attrelid AND d.adnum = a.attnum WHERE a.attrelid = to_regclass(").bind(settings.table())
                .sql(") AND a.attname = ").bind(column).sql(" AND NOT a.attisdropped"),
                rows -> rows.next() ? new String[] {rows.getString(1), rows.getString(2)} : null);
        String fix = "; or set " + PgVectorOptions.FULL_TEXT + "=false to serve no keyword leg";
        if (found == null) {
            throw new PgVectorStoreException("table " + settings.table() + " has no column " + column + " (the keyword leg's stored "
                    + expected + "): apply migrations/store-pgvector/V2__inline_vectors_and_stored_tsvector.sql (or the DDL of "
                    + "PgVectorStore.schemaStatements()), or start once with ensureSchema=true" + fix, null);
        }
        if (!"s".equals(found[0]) || !expected.equals(found[1])) {
            throw new PgVectorStoreException("column " + column + " of table " + settings.table() + " must be GENERATED ALWAYS AS ("
                    + expected + ") STORED, found " + (found[1] == null ? "a plain column" : found[1]) + " (fullTextLanguage is "
                    + settings.fullTextLanguage() + "): ALTER TABLE " + settings.table() + " DROP COLUMN " + column
                    + ", then start once with ensureSchema=true (it rewrites the table)" + fix, null);
        }
    }

    @Override
    public void checkHealth() {
        String columns = settings.fullText() ? c.writtenColumns() + ", " + c.indexVector() : c.writtenColumns();
        query("check the table and its columns", new SqlFragment().sql("SELECT " + columns + " FROM " + settings.table() + " LIMIT 0"),
                rows -> null);
    }

    /** The store's replica routing, for tests that inspect where searches went. */
    ReplicaRouting replicasForTest() {
        return replicas;
    }

    /** The store's remembered namespace sizes, for tests that check which path a search takes. */
    NamespaceSizes sizesForTest() {
        return sizes;
    }

    /** The store's connection source, for tests that inspect a pooled session. */
    ConnectionSource connectionsForTest() {
        return connections;
    }

    @Override
    public void close() {
        connections.close();
        replicas.close();
    }

    @Override
    public String toString() {
        return "PgVectorStore[" + settings.table() + ", " + settings.metric().optionValue + ", widths " + settings.dimensions() + "]";
    }
}
