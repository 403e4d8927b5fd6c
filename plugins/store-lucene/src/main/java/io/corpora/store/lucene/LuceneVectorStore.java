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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
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
 * on first use and kept open until {@link #close()}. A namespace is a separate index, so no query can reach
 * another namespace's chunks whatever its filter.
 */
public final class LuceneVectorStore implements VectorStore {

    static final String TRASH = ".trash";
    static final int MAX_PAGE = 10_000;

    private final LuceneStoreSettings settings;
    private final Logger logger;
    private final Analyzer analyzer;
    private final Codec codec;
    private final BM25Similarity similarity;
    private final VectorSearch vectorSearch;
    private final KeywordSearch keywordSearch;
    private final Map<Namespace, NamespaceIndex> indexes = new ConcurrentHashMap<>();
    /** Read-held by every operation; write-held to delete a namespace or close the store. */
    private final ReentrantReadWriteLock lifecycle = new ReentrantReadWriteLock();
    private final ScheduledExecutorService committer;
    private volatile boolean closed;

    public LuceneVectorStore(LuceneStoreSettings settings, Logger logger) {
        this.settings = settings;
        this.logger = logger;
        this.analyzer = TextAnalyzers.forName(settings.analyzer());
        this.codec = codecFor(settings);
        this.similarity = new BM25Similarity(settings.bm25K1(), settings.bm25B());
        this.vectorSearch = new VectorSearch(settings);
        this.keywordSearch = new KeywordSearch(analyzer);
        try {
            Files.createDirectories(settings.directory());
            deleteRecursively(settings.directory().resolve(TRASH)); // namespaces whose deletion a crash interrupted
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the Lucene store directory " + settings.directory(), e);
        }
        if (settings.commitsOnEveryWrite()) {
            committer = null;
        } else {
            committer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "corpora-lucene-committer");
                t.setDaemon(true);
                return t;
            });
            long millis = Math.max(1, settings.commitInterval().toMillis());
            committer.scheduleWithFixedDelay(this::commitPending, millis, millis, TimeUnit.MILLISECONDS);
        }
        logger.info(() -> "Lucene store at " + settings.directory() + " (" + settings.metric() + ", analyzer " + settings.analyzer()
                + ", quantization " + settings.quantization() + ")");
    }

    private static Codec codecFor(LuceneStoreSettings settings) {
        KnnVectorsFormat format = switch (settings.quantization()) {
            case "none" -> new Lucene99HnswVectorsFormat(settings.hnswM(), settings.hnswBeamWidth());
            case "int8" -> new Lucene99HnswScalarQuantizedVectorsFormat(settings.hnswM(), settings.hnswBeamWidth());
            case "int4" -> new Lucene99HnswScalarQuantizedVectorsFormat(settings.hnswM(), settings.hnswBeamWidth(), 1, 4, true, null, null);
            default -> throw new IllegalArgumentException("unknown quantization '" + settings.quantization() + "'");
        };
        return new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return format;
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
            documents.add(ChunkDocuments.toDocument(chunk, settings.metric())); // validate the whole batch before writing any
        }
        onIndex(namespace, true, null, index -> index.write((writer, current) -> {
            for (Document document : documents) {
                writer.updateDocument(new Term(ChunkDocuments.ID, document.get(ChunkDocuments.ID)), document);
            }
            return null;
        }));
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
        return onIndex(namespace, false, 0, index -> index.write((writer, current) -> {
            int existing = current.count(query);
            if (existing > 0) {
                writer.deleteDocuments(query);
            }
            return existing;
        }));
    }

    /** Closes the namespace's index, moves its directory aside atomically, then deletes it. */
    @Override
    public void deleteNamespace(Namespace namespace) {
        lifecycle.writeLock().lock();
        try {
            ensureOpen();
            NamespaceIndex index = indexes.remove(namespace);
            if (index != null) {
                index.close();
            }
            Path path = pathOf(namespace);
            if (Files.isDirectory(path)) {
                Path trash = settings.directory().resolve(TRASH).resolve(namespace.key() + "-" + System.nanoTime());
                Files.createDirectories(trash.getParent());
                try {
                    Files.move(path, trash, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    throw new IOException("cannot move " + path + " atomically; the store directory must be on one file system", e);
                }
                deleteRecursively(trash);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete namespace '" + namespace + "'", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
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
            if (committer != null) {
                committer.shutdownNow();
            }
            List<Exception> failures = new ArrayList<>();
            for (NamespaceIndex index : indexes.values()) {
                try {
                    index.close();
                } catch (IOException | RuntimeException e) {
                    failures.add(e);
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
        return settings.directory().resolve(namespace.tenant()).resolve(namespace.partitionKey());
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
                index = indexes.computeIfAbsent(namespace, this::openIndex);
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

    private NamespaceIndex openIndex(Namespace namespace) {
        Path path = pathOf(namespace);
        try {
            Files.createDirectories(path);
            return NamespaceIndex.open(namespace, path, settings, analyzer, codec, similarity);
        } catch (LockObtainFailedException e) {
            throw new IllegalStateException("the index of namespace '" + namespace + "' at " + path + " is held by another store "
                    + "instance or process; one directory can be opened by one store at a time", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the index of namespace '" + namespace + "' at " + path, e);
        }
    }

    private void discard(NamespaceIndex index) {
        lifecycle.writeLock().lock();
        try {
            if (indexes.remove(index.namespace(), index)) {
                logger.warning(() -> "a write to namespace '" + index.namespace() + "' failed; rolling its index back to the last commit");
                index.close();
            }
        } catch (IOException | RuntimeException e) {
            logger.log(Level.WARNING, "rolling back the index of namespace '" + index.namespace() + "' failed", e);
        } finally {
            lifecycle.writeLock().unlock();
        }
    }

    private void commitPending() {
        lifecycle.readLock().lock();
        try {
            for (NamespaceIndex index : indexes.values()) {
                try {
                    index.commitIfNeeded();
                } catch (IOException | RuntimeException e) {
                    logger.log(Level.WARNING, "background commit of namespace '" + index.namespace() + "' failed", e);
                }
            }
        } finally {
            lifecycle.readLock().unlock();
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    @Override
    public String toString() {
        return "LuceneVectorStore[" + settings.directory() + ", " + indexes.size() + " open namespaces]";
    }
}
