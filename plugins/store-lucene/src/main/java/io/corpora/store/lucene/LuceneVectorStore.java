package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.StoredFieldsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.Sort;
import org.apache.lucene.search.SortField;
import org.apache.lucene.search.TermInSetQuery;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TermRangeQuery;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.LockObtainFailedException;
import org.apache.lucene.util.BytesRef;

/**
 * The Lucene {@link VectorStore}: one index per namespace under {@code <directory>/<tenant>/<partition>}, opened
 * on first use and kept open until the platform releases its tenant ({@link #releaseTenant}, when the tenant leaves
 * the working set) or {@link #close()}. A namespace is a separate index, so no query can reach another namespace's
 * chunks whatever its filter. Opening one namespace never waits for another's open (no map lock is held meanwhile).
 *
 * <p>Several instances (different search or build options) may share one directory: the server gives every instance
 * with the same {@code directory} option the same data directory, so an option change keeps a tenant on its indexes.
 * Lucene lets one writer hold an index, so the instances of this JVM hand a namespace over: the one that needs it asks
 * the holder ({@link #HOLDERS}) to close it first, which waits for the holder's calls in flight.
 */
public final class LuceneVectorStore implements VectorStore {

    static final String TRASH = ".trash";
    /** Offloaded tenants, one compressed archive each (tenant ids never start with a dot). */
    static final String OFFLOADED = ".offloaded";
    static final int MAX_PAGE = 10_000;
    /** How long a hand-over waits for the holding instance's calls in flight before giving up. */
    static final long HANDOVER_WAIT_SECONDS = 30;

    /** Which instance of this JVM (this plugin's class loader) holds each namespace index open, by its absolute path. */
    private static final Map<Path, LuceneVectorStore> HOLDERS = new ConcurrentHashMap<>();

    private final LuceneStoreSettings settings;
    private final Logger logger;
    private final Analyzer analyzer;
    private final Codec codec;
    private final BM25Similarity similarity;
    private final VectorSearch vectorSearch;
    private final KeywordSearch keywordSearch;
    private final Map<Namespace, NamespaceIndex> indexes = new ConcurrentHashMap<>();
    /** Opens in progress, one per namespace: a second caller waits for the first's, callers on other namespaces wait for none. */
    private final Map<Namespace, CompletableFuture<NamespaceIndex>> opening = new ConcurrentHashMap<>();
    /** Read-held by every operation; write-held to delete a namespace or close the store. */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final ScheduledExecutorService maintenance;
    private volatile boolean closed;

    public LuceneVectorStore(LuceneStoreSettings settings, Logger logger) {
        this.settings = settings;
        this.logger = logger;
        this.analyzer = TextAnalyzers.forName(settings.analyzer());
        this.codec = codecFor(settings);
        this.similarity = new BM25Similarity(settings.bm25K1(), settings.bm25B());
        ReaderCounts counts = new ReaderCounts();
        this.vectorSearch = new VectorSearch(settings, counts);
        this.keywordSearch = new KeywordSearch(analyzer, settings.keyword(), counts);
        try {
            Files.createDirectories(settings.directory());
            deleteRecursively(settings.directory().resolve(TRASH)); // namespaces whose deletion a crash interrupted
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the Lucene store directory " + settings.directory(), e);
        }
        // Background work of every open namespace: Lucene commits (translog.flushInterval / flushBytes) and, with
        // commitInterval > 0, the translog fsyncs that make writes durable.
        maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "corpora-lucene-translog");
            t.setDaemon(true);
            return t;
        });
        long flushCheckMillis = Math.max(1, Math.min(1000, settings.flushInterval().toMillis()));
        maintenance.scheduleWithFixedDelay(this::commitDue, flushCheckMillis, flushCheckMillis, TimeUnit.MILLISECONDS);
        if (!settings.syncsEveryWrite()) {
            long millis = Math.max(1, settings.commitInterval().toMillis());
            maintenance.scheduleWithFixedDelay(this::syncLogs, millis, millis, TimeUnit.MILLISECONDS);
        }
        logger.info(() -> "Lucene store at " + settings.directory() + " (" + settings.metric() + ", analyzer " + settings.analyzer()
                + ", quantization " + settings.quantization() + ")");
    }

    private static Codec codecFor(LuceneStoreSettings settings) {
        KnnVectorsFormat format = switch (settings.quantization()) {
            case "none" -> new Lucene99HnswVectorsFormat(settings.hnswM(), settings.hnswEfConstruction());
            case "int8" -> new Lucene99HnswScalarQuantizedVectorsFormat(settings.hnswM(), settings.hnswEfConstruction());
            case "int4" -> new Lucene99HnswScalarQuantizedVectorsFormat(settings.hnswM(), settings.hnswEfConstruction(), 1, 4, true, null, null);
            default -> throw new IllegalArgumentException("unknown quantization '" + settings.quantization() + "'");
        };
        Codec vectors = new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return format;
            }
        };
        StoredFieldsFormat stored = new StoredChunkFormat(settings.storedBlockKb() * 1024);
        // Lucene's name: segments record it, and the standard codec reads what this one writes (see StoredChunkFormat).
        return new FilterCodec(vectors.getName(), vectors) {
            @Override
            public StoredFieldsFormat storedFieldsFormat() {
                return stored;
            }
        };
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.KEYWORD_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN,
                StoreCapability.RETURNS_EMBEDDINGS);
    }

    // ------------------------------------------------------------------------------------------------ writes

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        if (chunks.isEmpty()) {
            return;
        }
        Map<String, EmbeddedChunk> lastById = new LinkedHashMap<>();
        for (EmbeddedChunk chunk : chunks) {
            lastById.put(chunk.chunk().id(), chunk); // duplicate ids in one call: the last wins
        }
        List<Document> documents = new ArrayList<>(lastById.size());
        for (EmbeddedChunk chunk : lastById.values()) {
            // validate the whole batch before writing any
            documents.add(ChunkDocuments.toDocument(chunk, settings.metric(), settings.keyword().titleField()));
        }
        byte[] record = UpsertRecord.encode(lastById.values());
        onIndex(namespace, true, null, index -> {
            index.upsert(record, documents);
            return null;
        });
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        Set<String> unique = new LinkedHashSet<>(chunkIds);
        if (unique.isEmpty()) {
            return 0;
        }
        List<BytesRef> terms = unique.stream().map(BytesRef::new).toList();
        return deleteMatching(namespace, new TermInSetQuery(ChunkDocuments.ID, terms));
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        return deleteMatching(namespace, new TermQuery(new Term(ChunkDocuments.DOCUMENT, documentId)));
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        return deleteMatching(namespace, FilterQueries.compile(filter));
    }

    private int deleteMatching(Namespace namespace, Query query) {
        return onIndex(namespace, false, 0, index -> index.delete(query));
    }

    /** Closes the namespace's index, moves its directory aside atomically, then deletes it. */
    @Override
    public void deleteNamespace(Namespace namespace) {
        lifecycle.writeLock().lock();
        try {
            ensureOpen();
            Path path = pathOf(namespace);
            takeOver(path);
            NamespaceIndex index = indexes.remove(namespace);
            if (index != null) {
                index.close();
            }
            HOLDERS.remove(key(path), this);
            moveAsideAndDelete(path, namespace.key());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete namespace '" + namespace + "'", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Deletes {@code <directory>/<tenant>} whole: every partition's index, open or not, known to this instance or not. */
    @Override
    public boolean deleteTenant(String tenantId) {
        lifecycle.writeLock().lock();
        try {
            ensureOpen();
            Path tenantPath = settings.directory().resolve(tenantId);
            closeTenantIndexes(tenantId, tenantPath);
            moveAsideAndDelete(tenantPath, tenantId);
            Files.deleteIfExists(offloadArchive(tenantId));
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the indexes of tenant '" + tenantId + "'", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /**
     * Closes the tenant's indexes and moves its directory into {@code .offloaded/<tenant>.zip} (deflated, written to a
     * temporary file and renamed, so a crash leaves either the directory or a whole archive), then deletes the directory.
     */
    @Override
    public boolean offloadTenant(String tenantId) {
        lifecycle.writeLock().lock();
        try {
            ensureOpen();
            Path tenantPath = settings.directory().resolve(tenantId);
            closeTenantIndexes(tenantId, tenantPath);
            if (!Files.isDirectory(tenantPath)) {
                return true; // nothing written yet: nothing to move
            }
            Path archive = offloadArchive(tenantId);
            if (Files.exists(archive)) {
                throw new IllegalStateException("tenant '" + tenantId + "' has both live indexes and an offloaded archive " + archive
                        + "; restore it first");
            }
            Files.createDirectories(archive.getParent());
            Path partial = archive.resolveSibling(archive.getFileName() + ".partial");
            TreeArchive.zip(tenantPath, partial);
            Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
            moveAsideAndDelete(tenantPath, tenantId);
            logger.info(() -> "offloaded tenant " + tenantId + " to " + archive);
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot offload the indexes of tenant '" + tenantId + "'", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    /** Unpacks the tenant's archive beside its directory and renames it into place; then removes the archive. */
    @Override
    public void restoreTenant(String tenantId) {
        lifecycle.writeLock().lock();
        try {
            ensureOpen();
            Path archive = offloadArchive(tenantId);
            if (!Files.exists(archive)) {
                return;
            }
            Path tenantPath = settings.directory().resolve(tenantId);
            if (!Files.isDirectory(tenantPath)) {
                Path unpacked = settings.directory().resolve(TRASH).resolve("restore-" + tenantId + "-" + System.nanoTime());
                TreeArchive.unzip(archive, unpacked);
                Files.move(unpacked, tenantPath, StandardCopyOption.ATOMIC_MOVE);
            } // else an offload stopped after writing the archive: the directory is still whole
            Files.delete(archive);
            logger.info(() -> "restored tenant " + tenantId + " from " + archive);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot restore the offloaded indexes of tenant '" + tenantId + "'", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private Path offloadArchive(String tenantId) {
        return settings.directory().resolve(OFFLOADED).resolve(tenantId + ".zip");
    }

    /** Under the write lock: takes the tenant's indexes over from other instances and closes this one's. */
    private void closeTenantIndexes(String tenantId, Path tenantPath) throws IOException {
        Path tenantKey = key(tenantPath);
        for (Path held : List.copyOf(HOLDERS.keySet())) {
            if (held.startsWith(tenantKey)) {
                takeOver(held);
            }
        }
        for (Namespace namespace : List.copyOf(indexes.keySet())) {
            if (namespace.tenant().equals(tenantId)) {
                indexes.remove(namespace).close();
            }
        }
        HOLDERS.entrySet().removeIf(held -> held.getKey().startsWith(tenantKey) && held.getValue() == this);
    }

    private void moveAsideAndDelete(Path path, String label) throws IOException {
        if (!Files.isDirectory(path)) {
            return;
        }
        Path trash = settings.directory().resolve(TRASH).resolve(label + "-" + System.nanoTime());
        Files.createDirectories(trash.getParent());
        try {
            Files.move(path, trash, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot move " + path + " atomically; the store directory must be on one file system", e);
        }
        deleteRecursively(trash);
    }

    // ------------------------------------------------------------------------------------------------ reads

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        return switch (request.mode()) {
            case VECTOR -> vectorSearch(namespace, request).hits();
            case KEYWORD -> onIndex(namespace, false, List.of(),
                    index -> index.read(searcher -> keywordSearch.search(searcher, request, filterOf(request))));
        };
    }

    /** The vector leg with how it ran (exact or HNSW), for tests and benchmarks. */
    VectorSearch.Outcome vectorSearch(Namespace namespace, SearchRequest request) {
        return onIndex(namespace, false, new VectorSearch.Outcome(List.of(), VectorSearch.Strategy.NONE, 0),
                index -> index.read(searcher -> vectorSearch.search(searcher, request, filterOf(request))));
    }

    /** The request's metadata filter AND its embedder fingerprint. */
    private static Query filterOf(SearchRequest request) {
        Query filter = FilterQueries.compile(request.filter());
        if (request.embedderId() == null) {
            return filter;
        }
        Query embedder = new TermQuery(new Term(ChunkDocuments.STRING_PREFIX + ReservedKeys.EMBEDDER, request.embedderId()));
        if (filter instanceof MatchAllDocsQuery) {
            return embedder;
        }
        return new BooleanQuery.Builder().add(filter, Occur.FILTER).add(embedder, Occur.FILTER).build();
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        Query query = new TermQuery(new Term(ChunkDocuments.DOCUMENT, documentId));
        Sort byIndex = new Sort(new SortField(ChunkDocuments.INDEX, SortField.Type.INT), new SortField(ChunkDocuments.ID, SortField.Type.STRING));
        return onIndex(namespace, false, List.of(), index -> index.read(searcher -> {
            int count = searcher.count(query);
            return count == 0 ? List.of() : load(searcher, searcher.search(query, count, byIndex).scoreDocs, count);
        }));
    }

    /** The vectors of the chunks' documents, whichever width each has ({@code vec.<width>}). */
    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        if (chunkIds.isEmpty()) {
            return Optional.of(Map.of());
        }
        List<BytesRef> ids = new LinkedHashSet<>(chunkIds).stream().map(BytesRef::new).toList();
        Query query = new TermInSetQuery(ChunkDocuments.ID, ids);
        return Optional.of(onIndex(namespace, false, Map.<String, float[]>of(), index -> index.read(searcher -> {
            ScoreDoc[] docs = searcher.search(query, ids.size()).scoreDocs;
            List<Candidate> found = new ArrayList<>(docs.length);
            for (ScoreDoc doc : docs) {
                found.add(new Candidate(doc.doc, 0, null, null));
            }
            Map<String, float[]> vectors = new LinkedHashMap<>();
            var storedFields = searcher.storedFields();
            for (Candidate candidate : Candidate.withStoredVectors(searcher, found)) {
                if (candidate.vector() != null) {
                    vectors.put(ChunkDocuments.readChunk(storedFields, candidate.docId()).id(), candidate.vector());
                }
            }
            return vectors;
        })));
    }

    /** Pages in the byte order of the UTF-8 ids (String order for ids without supplementary characters). */
    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        if (limit < 1 || limit > MAX_PAGE) {
            throw new IllegalArgumentException("list limit must be 1.." + MAX_PAGE + ", got " + limit);
        }
        Query query = afterId == null ? new MatchAllDocsQuery() : TermRangeQuery.newStringRange(ChunkDocuments.ID, afterId, null, false, false);
        return onIndex(namespace, false, new ChunkPage(List.of(), null), index -> index.read(searcher -> {
            ScoreDoc[] docs = searcher.search(query, limit + 1, new Sort(new SortField(ChunkDocuments.ID, SortField.Type.STRING))).scoreDocs;
            List<Chunk> page = load(searcher, docs, limit);
            return new ChunkPage(page, docs.length > limit ? page.get(limit - 1).id() : null);
        }));
    }

    private static List<Chunk> load(IndexSearcher searcher, ScoreDoc[] docs, int max) throws IOException {
        var storedFields = searcher.storedFields();
        List<Chunk> chunks = new ArrayList<>(Math.min(max, docs.length));
        for (int i = 0; i < docs.length && i < max; i++) {
            chunks.add(ChunkDocuments.readChunk(storedFields, docs[i].doc));
        }
        return chunks;
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        Query query = FilterQueries.compile(filter);
        return onIndex(namespace, false, 0L, index -> index.read(searcher -> (long) searcher.count(query)));
    }

    @Override
    public void checkHealth() {
        ensureOpen();
        Path directory = settings.directory();
        if (!Files.isDirectory(directory) || !Files.isWritable(directory)) {
            throw new IllegalStateException("the Lucene store directory " + directory + " is missing or not writable");
        }
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    /** Commits every open index and closes it; the store refuses calls afterwards. Idempotent. */
    @Override
    public void close() {
        lifecycle.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            maintenance.shutdownNow();
            List<Exception> failures = new ArrayList<>();
            for (Map.Entry<Namespace, NamespaceIndex> open : indexes.entrySet()) {
                try {
                    open.getValue().close();
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
                } finally {
                    HOLDERS.remove(key(pathOf(open.getKey())), this);
                }
            }
            indexes.clear();
            if (!failures.isEmpty()) {
                UncheckedIOException error = new UncheckedIOException(new IOException("closing " + failures.size() + " namespace index(es) failed"));
                failures.forEach(error::addSuppressed);
                throw error;
            }
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the Lucene store at " + settings.directory() + " is closed");
        }
    }

    Path pathOf(Namespace namespace) {
        return pathOf(settings.directory(), namespace);
    }

    /**
     * Where a namespace's index lives in a store's directory: one directory per tenant, one per partition in it. Public for
     * the benchmarks that open a store's indexes with Lucene itself.
     */
    public static Path pathOf(Path storeDirectory, Namespace namespace) {
        return storeDirectory.resolve(namespace.tenant()).resolve(namespace.partitionKey());
    }

    @FunctionalInterface
    private interface IndexAction<T> {
        T apply(NamespaceIndex index) throws IOException;
    }

    /**
     * Runs an action on the namespace's index, opening it when needed. {@code absent} is returned without creating
     * anything when the namespace has no index and {@code create} is false. An index whose write failed is closed
     * (rolled back to its last commit) and reopened by the next call.
     */
    private <T> T onIndex(Namespace namespace, boolean create, T absent, IndexAction<T> action) {
        NamespaceIndex failed = null;
        lifecycle.readLock().lock();
        try {
            ensureOpen();
            NamespaceIndex index = indexes.get(namespace);
            if (index == null) {
                if (!create && !Files.isDirectory(pathOf(namespace))) {
                    return absent;
                }
                index = openOnce(namespace);
            }
            try {
                return action.apply(index);
            } catch (IOException e) {
                throw new UncheckedIOException("Lucene I/O failed in namespace '" + namespace + "'", e);
            } finally {
                if (index.failed()) {
                    failed = index;
                }
            }
        } finally {
            lifecycle.readLock().unlock();
            if (failed != null) {
                discard(failed);
            }
        }
    }

    /** The namespace's index, opened by this caller or by the one already opening it. */
    private NamespaceIndex openOnce(Namespace namespace) {
        CompletableFuture<NamespaceIndex> mine = new CompletableFuture<>();
        CompletableFuture<NamespaceIndex> other = opening.putIfAbsent(namespace, mine);
        if (other != null) {
            try {
                return other.join();
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        try {
            NamespaceIndex index = indexes.get(namespace);
            if (index == null) {
                index = openIndex(namespace);
                indexes.put(namespace, index);
            }
            mine.complete(index);
            return index;
        } catch (RuntimeException | Error e) {
            mine.completeExceptionally(e);
            throw e;
        } finally {
            opening.remove(namespace, mine);
        }
    }

    /**
     * Closes (committing) every open index of the tenant; the next call reopens it from disk. The platform guarantees no
     * call on the tenant is in flight; other namespaces keep serving meanwhile (only the shared read lock is held).
     */
    @Override
    public void releaseTenant(String tenantId) {
        lifecycle.readLock().lock();
        try {
            if (closed) {
                return;
            }
            for (Namespace namespace : List.copyOf(indexes.keySet())) {
                if (!namespace.tenant().equals(tenantId)) {
                    continue;
                }
                NamespaceIndex index = indexes.remove(namespace);
                if (index == null) {
                    continue;
                }
                try {
                    index.close();
                } catch (IOException | RuntimeException e) {
                    logger.log(Level.WARNING, "closing the index of namespace '" + namespace + "' failed; it reopens from its last commit", e);
                } finally {
                    HOLDERS.remove(key(pathOf(namespace)), this);
                }
            }
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Segments the namespace's searcher reads, each an HNSW graph a kNN search walks (tests). */
    int searchedSegments(Namespace namespace) {
        return onIndex(namespace, false, 0, index -> index.read(searcher -> searcher.getIndexReader().leaves().size()));
    }

    /** Whether the namespace's index has merges queued or running (tests). */
    boolean merging(Namespace namespace) {
        return onIndex(namespace, false, false, NamespaceIndex::merging);
    }

    /** How many namespace indexes this instance holds open (tests, benchmarks). */
    int openNamespaces() {
        return indexes.size();
    }

    private NamespaceIndex openIndex(Namespace namespace) {
        Path path = pathOf(namespace);
        try {
            takeOver(path);
            Files.createDirectories(path);
            NamespaceIndex index = NamespaceIndex.open(namespace, path, settings, analyzer, codec, similarity);
            Translog.Replay replay = index.recovered();
            if (replay.records() > 0) {
                logger.info(() -> "namespace '" + namespace + "': replayed " + replay.records() + " upserts from its translog and committed them");
            }
            if (replay.tornTail() != null) {
                logger.warning(() -> "namespace '" + namespace + "': its translog " + replay.tornTail() + "; the records from there on were "
                        + "never acknowledged (a crash mid-append) and were not replayed");
            }
            return index;
        } catch (LockObtainFailedException e) {
            HOLDERS.remove(key(path), this);
            throw new IllegalStateException("the index of namespace '" + namespace + "' at " + path + " is held by another store "
                    + "instance or process; one directory can be opened by one store at a time", e);
        } catch (IOException e) {
            HOLDERS.remove(key(path), this);
            throw new UncheckedIOException("cannot open the index of namespace '" + namespace + "' at " + path, e);
        }
    }

    /**
     * Registers this instance as the holder of the index at {@code path}, first asking another instance of this JVM that
     * holds it to close it. Called under this instance's lifecycle lock (read or write).
     */
    private void takeOver(Path path) {
        Path key = key(path);
        while (true) {
            LuceneVectorStore holder = HOLDERS.putIfAbsent(key, this);
            if (holder == null || holder == this) {
                return;
            }
            holder.handOver(key);
        }
    }

    /** Closes this instance's index at {@code key} (committing it) so another instance can open it. */
    private void handOver(Path key) {
        boolean locked;
        try {
            locked = lifecycle.writeLock().tryLock(HANDOVER_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the index at " + key + " to be handed over", e);
        }
        if (!locked) {
            throw new IllegalStateException("the index at " + key + " is held by another store instance that stayed busy for "
                    + HANDOVER_WAIT_SECONDS + " s; retry");
        }
        try {
            for (Namespace namespace : List.copyOf(indexes.keySet())) {
                if (key(pathOf(namespace)).equals(key)) {
                    try {
                        indexes.remove(namespace).close();
                    } catch (IOException e) {
                        throw new UncheckedIOException("closing the index of namespace '" + namespace + "' for another store instance failed", e);
                    }
                }
            }
            HOLDERS.remove(key, this);
            logger.fine(() -> "handed the index at " + key + " over to another store instance");
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private static Path key(Path path) {
        return path.toAbsolutePath().normalize();
    }

    private void discard(NamespaceIndex index) {
        lifecycle.writeLock().lock();
        try {
            if (indexes.remove(index.namespace(), index)) {
                logger.warning(() -> "a write to namespace '" + index.namespace() + "' failed; rolling its index back to the last commit");
                index.close();
                HOLDERS.remove(key(pathOf(index.namespace())), this);
            }
        } catch (IOException | RuntimeException e) {
            logger.log(Level.WARNING, "rolling back the index of namespace '" + index.namespace() + "' failed", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private void commitDue() {
        forEachOpen("background commit", index -> {
            index.maybeCommit(settings.flushInterval(), settings.flushBytes());
            index.maybeSettle(settings.mergeIdleAfter(), settings.mergeIdleSegments(), settings.mergeIdleMaxChunks());
            return null;
        });
    }

    private void syncLogs() {
        forEachOpen("translog fsync", index -> {
            index.syncLog();
            return null;
        });
    }

    private void forEachOpen(String what, IndexAction<?> action) {
        lifecycle.readLock().lock();
        try {
            for (NamespaceIndex index : indexes.values()) {
                try {
                    action.apply(index);
                } catch (IOException | RuntimeException e) {
                    logger.log(Level.WARNING, what + " of namespace '" + index.namespace() + "' failed; the next call reopens it from its "
                            + "last commit and replays its translog", e);
                }
            }
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    /** Deletes a tree; what vanishes meanwhile (another instance sharing the directory cleans the same trash) is fine. */
    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.deleteIfExists(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    if (exc instanceof NoSuchFileException) {
                        return FileVisitResult.CONTINUE;
                    }
                    throw exc;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                    if (exc != null && !(exc instanceof NoSuchFileException)) {
                        throw exc;
                    }
                    Files.deleteIfExists(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (NoSuchFileException gone) {
            // the whole tree went meanwhile
        }
    }

    @Override
    public String toString() {
        return "LuceneVectorStore[" + settings.directory() + ", " + indexes.size() + " open namespaces]";
    }
}
