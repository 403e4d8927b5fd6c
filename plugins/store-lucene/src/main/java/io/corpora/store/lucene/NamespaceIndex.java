package io.corpora.store.lucene;

import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * One namespace's Lucene index on disk: its writer, its {@link Translog}, and a {@link SearcherManager} of
 * near-real-time searchers over it.
 *
 * <ul>
 *   <li><b>Upserts</b> are applied one at a time under the write lock: the batch is appended to the translog and applied
 *   to the writer. Then, unless {@code commitInterval} is positive, the upsert returns once an fsync of the log covers it
 *   (writers waiting together share one fsync), so a returned write survives {@code kill -9} and power loss without a
 *   Lucene commit of its own.</li>
 *   <li><b>Lucene commits</b> run in the background ({@link #maybeCommit}: after {@code translog.flushInterval}, or once
 *   the log holds {@code translog.flushBytes}), before a delete returns, and on close. Each starts a new log generation
 *   and records it in the commit's user data; a replay starts there, and older generations are deleted.</li>
 *   <li><b>Deletes</b> are not logged: each commits before it returns, and that commit covers everything applied before it.</li>
 *   <li><b>Reads refresh lazily</b>: a write only counts itself; a read that finds writes applied since its searcher was
 *   opened refreshes first (under the write lock, so it never sees half a batch, and once for all readers waiting), so a
 *   read that starts after a write returned sees it, and a stream of writes with no reads opens no searchers.</li>
 *   <li><b>Opening</b> replays the log after the last commit (updates by chunk id, so replaying twice is harmless), stops
 *   at a torn tail, then commits and trims the log.</li>
 * </ul>
 * A write that fails leaves this index failed: the caller closes it, which rolls the writer back to its last commit;
 * the next open replays every acknowledged write from the log (the failed one was taken back out of it).
 */
final class NamespaceIndex implements Closeable {

    /** Commit user data recording what the index was built with, checked at every open. */
    static final String METRIC_KEY = "corpora.metric";
    static final String ANALYZER_KEY = "corpora.analyzer";
    /** Commit user data: the translog generation a replay starts from (everything before it is in this commit). */
    static final String TRANSLOG_KEY = "corpora.translog.generation";

    @FunctionalInterface
    interface Read<T> {
        T apply(IndexSearcher searcher) throws IOException;
    }

    private final Namespace namespace;
    private final Path path;
    private final LuceneStoreSettings settings;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final Translog translog;
    private final Translog.Replay recovered;
    private final ReentrantLock writeLock = new ReentrantLock(true); // fair: a queued read or commit is not starved by writers
    private volatile boolean failed;
    private volatile boolean closed;
    /** Writes (upserts and deletes) applied so far; incremented under the write lock, after the change. */
    private final AtomicLong applied = new AtomicLong();
    /** Writes the current searcher sees; written under the write lock. */
    private volatile long refreshedThrough;
    /** Writes the last Lucene commit covers; written under the write lock. */
    private volatile long committedThrough;
    private volatile long lastCommitNanos = System.nanoTime();
    /** When the last write was applied (or the index opened). */
    private volatile long lastWriteNanos = System.nanoTime();
    /** The write count when this index last settled ({@link #maybeSettle}); -1: not since it opened. */
    private volatile long settledThrough = -1;

    private NamespaceIndex(Namespace namespace, Path path, LuceneStoreSettings settings, Directory directory, IndexWriter writer,
                           SearcherManager searchers, Translog translog, Translog.Replay recovered) {
        this.namespace = namespace;
        this.path = path;
        this.settings = settings;
        this.directory = directory;
        this.writer = writer;
        this.searchers = searchers;
        this.translog = translog;
        this.recovered = recovered;
    }

    static NamespaceIndex open(Namespace namespace, Path path, LuceneStoreSettings settings, Analyzer analyzer, Codec codec,
                               Similarity similarity) throws IOException {
        Directory directory = FSDirectory.open(path);
        IndexWriter writer = null;
        Translog translog = null;
        try {
            boolean exists = DirectoryReader.indexExists(directory);
            Map<String, String> built = exists ? SegmentInfos.readLatestCommit(directory).getUserData() : Map.of();
            requireSame(namespace, METRIC_KEY, built.get(METRIC_KEY), settings.metric().name());
            requireSame(namespace, ANALYZER_KEY, built.get(ANALYZER_KEY), settings.analyzer());
            IndexWriterConfig config = new IndexWriterConfig(analyzer)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setCodec(codec)
                    .setSimilarity(similarity)
                    .setRAMBufferSizeMB(settings.ramBufferMb())
                    .setMergePolicy(mergePolicy(settings))
                    .setCommitOnClose(false); // close commits itself, with the translog generation in the commit
            writer = new IndexWriter(directory, config);
            IndexWriter replaying = writer;
            long replayFrom = Long.parseLong(built.getOrDefault(TRANSLOG_KEY, "1"));
            Translog.Replay replay = Translog.replay(path, replayFrom, record -> apply(replaying, UpsertRecord.decode(record), settings));
            // A new generation: never appended after a torn tail, never below the commit's replay start.
            long generation = Math.max(replay.lastGeneration() + 1, replayFrom);
            translog = Translog.startingAt(path, generation);
            writer.setLiveCommitData(commitData(settings, generation).entrySet());
            if (replay.records() > 0) {
                writer.commit();
            }
            Translog.deleteBelow(path, generation); // replayed and committed, or holding no whole record
            SearcherManager searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(org.apache.lucene.index.IndexReader reader, org.apache.lucene.index.IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    return searcher;
                }
            });
            return new NamespaceIndex(namespace, path, settings, directory, writer, searchers, translog, replay);
        } catch (IOException | RuntimeException e) {
            try {
                if (translog != null) {
                    translog.close();
                }
                if (writer != null) {
                    writer.rollback();
                }
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            directory.close();
            throw e;
        }
    }

    /**
     * Lucene's tiered policy with 10.2's floor (lucene#14189): the translog's background commits flush segments of
     * 1-15 MB every few seconds (one per writer thread), which 9.x's 2 MB floor ranks as tiers of their own to fill
     * before merging; each is an HNSW graph a kNN search walks.
     */
    private static TieredMergePolicy mergePolicy(LuceneStoreSettings settings) {
        TieredMergePolicy policy = new TieredMergePolicy();
        policy.setFloorSegmentMB(settings.mergeFloorSegmentMb());
        return policy;
    }

    private static Map<String, String> commitData(LuceneStoreSettings settings, long generation) {
        return Map.of(METRIC_KEY, settings.metric().name(), ANALYZER_KEY, settings.analyzer(), TRANSLOG_KEY, Long.toString(generation));
    }

    private static void requireSame(Namespace namespace, String key, String built, String configured) {
        if (built != null && !built.equals(configured)) {
            throw new IllegalStateException("the index of namespace '" + namespace + "' was built with " + key + "=" + built
                    + " but the store is configured with " + configured + "; re-index the namespace or restore the setting");
        }
    }

    /**
     * Updates each chunk by id, built as the upsert built it (metric, title field): a replay of a record already in the
     * index changes nothing.
     */
    private static void apply(IndexWriter writer, List<EmbeddedChunk> chunks, LuceneStoreSettings settings) {
        try {
            for (EmbeddedChunk chunk : chunks) {
                writer.updateDocument(new Term(ChunkDocuments.ID, chunk.chunk().id()), ChunkDocuments.toDocument(chunk, settings.metric(),
                        settings.keyword().titleField()));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("replaying the translog failed", e);
        }
    }

    Namespace namespace() {
        return namespace;
    }

    Path path() {
        return path;
    }

    boolean failed() {
        return failed;
    }

    /** What opening this index replayed from its translog. */
    Translog.Replay recovered() {
        return recovered;
    }

    <T> T read(Read<T> read) throws IOException {
        if (refreshedThrough < applied.get()) {
            writeLock.lock();
            try {
                refreshLocked();
            } finally {
                writeLock.unlock();
            }
        }
        IndexSearcher searcher = searchers.acquire();
        try {
            return read.apply(searcher);
        } finally {
            searchers.release(searcher);
        }
    }

    /** Opens a searcher over every write applied so far, unless the current one sees them all. Under the write lock. */
    private void refreshLocked() throws IOException {
        if (refreshedThrough < applied.get()) {
            reopenLocked();
        }
    }

    /** Opens a searcher over the writer's current segments and every write applied so far. Under the write lock. */
    private void reopenLocked() throws IOException {
        long covers = applied.get();
        searchers.maybeRefreshBlocking();
        refreshedThrough = covers;
    }

    /**
     * Logs and applies one batch (documents already built from {@code record}'s chunks, in order); returns once it is
     * durable, or at once with background durability ({@code commitInterval} &gt; 0).
     */
    void upsert(byte[] record, List<Document> documents) throws IOException {
        long sequence;
        writeLock.lock();
        try {
            requireUsable();
            sequence = translog.append(record);
            try {
                for (Document document : documents) {
                    writer.updateDocument(new Term(ChunkDocuments.ID, document.get(ChunkDocuments.ID)), document);
                }
            } catch (IOException | RuntimeException | Error e) {
                takeBack(e);
                throw e;
            }
            applied.incrementAndGet();
            lastWriteNanos = System.nanoTime();
        } catch (IOException | RuntimeException | Error e) {
            failed = true;
            throw e;
        } finally {
            writeLock.unlock();
        }
        if (settings.syncsEveryWrite()) {
            try {
                translog.awaitDurable(sequence);
            } catch (IOException | RuntimeException e) {
                failed = true; // unknown durability: roll back and replay what the log holds rather than half-acknowledge
                throw e;
            }
        }
    }

    /** The upsert did not apply whole: its record leaves the log, so no replay resurrects a refused write. */
    private void takeBack(Throwable failure) {
        try {
            translog.discardLast();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /** Deletes what matches and commits before returning (deletes are not logged); returns how many existed. */
    int delete(Query query) throws IOException {
        writeLock.lock();
        try {
            requireUsable();
            refreshLocked();
            IndexSearcher current = searchers.acquire();
            int existing;
            try {
                existing = current.count(query);
            } finally {
                searchers.release(current);
            }
            if (existing > 0) {
                writer.deleteDocuments(query);
                applied.incrementAndGet();
                lastWriteNanos = System.nanoTime();
                commitLocked();
            }
            return existing;
        } catch (IOException | RuntimeException | Error e) {
            failed = true;
            throw e;
        } finally {
            writeLock.unlock();
        }
    }

    private void requireUsable() {
        if (failed) {
            throw new IllegalStateException("the index of namespace '" + namespace + "' failed and is being reopened; retry");
        }
    }

    /**
     * Commits when the log has waited long enough or grown large enough (background). The segments are flushed before
     * the write lock is taken (that is most of a commit's work, and makes nothing visible or durable by itself), so
     * writers wait only for the commit's fsyncs.
     *
     * <p>Merges that finish after the last write are committed too, and the searcher reopened over them: reads refresh
     * only for writes, so without this a namespace whose writes stopped would be searched, until its next write, over
     * the segments its merges replaced (a kNN search walks one graph per segment), and the replaced files would stay on
     * disk beside the merged ones.
     */
    void maybeCommit(Duration interval, long bytes) {
        if (failed || closed) {
            return;
        }
        try {
            boolean writesPending = committedThrough != applied.get();
            if (!writesPending && !writer.hasUncommittedChanges()) {
                return;
            }
            if (System.nanoTime() - lastCommitNanos < interval.toNanos() && translog.bytes() < bytes) {
                return;
            }
            if (writesPending) {
                writer.flush();
            }
            writeLock.lock();
            try {
                if (!failed && !closed && (committedThrough < applied.get() || writer.hasUncommittedChanges())) {
                    commitLocked();
                    if (!writesPending) { // merges only: no read would reopen the searcher over them
                        reopenLocked();
                    }
                }
            } finally {
                writeLock.unlock();
            }
        } catch (AlreadyClosedException | java.nio.channels.ClosedChannelException e) {
            if (!closed) {
                failed = true;
                throw new IllegalStateException("the index of namespace '" + namespace + "' closed under its background commit", e);
            }
        } catch (IOException | RuntimeException e) {
            failed = true; // the next call reopens it from its last commit and replays the log
            throw new IllegalStateException("the background commit of namespace '" + namespace + "' failed", e);
        }
    }

    /**
     * Once no write has come for {@code idleAfter}, and once per such pause, merges this index down to
     * {@code maxSegments} segments when that is worth it ({@link #worthSettling}). Lucene's tiered policy leaves up to
     * ten segments per tier when an ingest stops, and a kNN search walks one HNSW graph per segment: the 100,000-chunk
     * bench tenant's ten segments (three of 22,000-32,000 chunks) took 3.3-4× the search time of the same chunks in one.
     * The merge runs on Lucene's merge threads, after any the ingest left running, and in its {@link IdleMergeTurn}; the
     * background commit publishes it. Runs on the store's maintenance thread.
     *
     * @return whether a merge started
     */
    boolean maybeSettle(Duration idleAfter, int maxSegments, int maxChunks) throws IOException {
        if (maxSegments < 1 || failed || closed || settledThrough == applied.get()
                || System.nanoTime() - lastWriteNanos < idleAfter.toNanos()
                || !IdleMergeTurn.claim(this)) {
            return false; // not paused, settled since its last write, or another namespace merging first (a later check)
        }
        boolean started = false;
        writeLock.lock();
        try {
            if (failed || closed || merging()) {
                return false; // the merges under way first: the next check settles what they leave
            }
            settledThrough = applied.get();
            refreshLocked();
            IndexSearcher current = searchers.acquire();
            boolean worth;
            try {
                worth = worthSettling(current.getIndexReader().leaves().stream().mapToInt(leaf -> leaf.reader().maxDoc()).toArray(),
                        current.getIndexReader().numDocs(), maxSegments, maxChunks);
            } finally {
                searchers.release(current);
            }
            if (worth) {
                writer.forceMerge(maxSegments, false);
                started = true;
            }
            return started;
        } catch (IOException | RuntimeException e) {
            failed = true; // as a failed background commit: the next call reopens it from its last commit
            throw e;
        } finally {
            writeLock.unlock();
            if (!started) {
                IdleMergeTurn.release(this);
            }
        }
    }

    /** Whether merges of this open index are queued or running. */
    boolean merging() {
        return !closed && !failed && (writer.hasPendingMerges() || !writer.getMergingSegments().isEmpty());
    }

    /**
     * Whether merging down to {@code maxSegments} segments is worth its cost: more segments than that, at most
     * {@code maxChunks} live chunks (a merge rewrites them, and Lucene 9 cannot abort a graph merge, so a close waits
     * for it: about 45 s of one core per 100,000 chunks here), and at least a tenth of the documents outside the
     * {@code maxSegments} largest segments — below that the search already costs about what one graph costs, and a
     * tenant writing a trickle would rewrite its whole index at every pause.
     *
     * @param segmentDocs each segment's documents, deleted ones included
     */
    static boolean worthSettling(int[] segmentDocs, int liveChunks, int maxSegments, int maxChunks) {
        if (segmentDocs.length <= maxSegments || liveChunks > maxChunks) {
            return false;
        }
        int[] sorted = segmentDocs.clone();
        Arrays.sort(sorted);
        long total = 0;
        long kept = 0;
        for (int i = 0; i < sorted.length; i++) {
            total += sorted[i];
            if (i >= sorted.length - maxSegments) {
                kept += sorted[i];
            }
        }
        return (total - kept) * 10 >= total;
    }

    /** Fsyncs the log (background durability, {@code commitInterval} &gt; 0). */
    void syncLog() throws IOException {
        if (!failed && !closed) {
            translog.sync();
        }
    }

    /**
     * Starts a new log generation (which makes everything logged so far durable), commits with that generation as the
     * replay start, and deletes the older generations. Under the write lock.
     */
    private void commitLocked() throws IOException {
        long covers = applied.get();
        long generation = translog.roll();
        writer.setLiveCommitData(commitData(settings, generation).entrySet());
        writer.commit();
        committedThrough = covers;
        lastCommitNanos = System.nanoTime();
        Translog.deleteBelow(path, generation);
    }

    /**
     * Commits and closes, leaving no log behind; a failed index is rolled back to its last commit instead, its log kept
     * (fsynced) for the next open to replay.
     */
    @Override
    public void close() throws IOException {
        writeLock.lock();
        try {
            closed = true;
            searchers.close();
            IOException commitFailure = null;
            if (!failed) {
                try {
                    commitLocked();
                } catch (IOException | RuntimeException e) {
                    failed = true;
                    commitFailure = e instanceof IOException io ? io : new IOException(e);
                }
            }
            if (failed) {
                try {
                    translog.close();
                } finally {
                    writer.rollback();
                }
                if (commitFailure != null) {
                    throw commitFailure;
                }
            } else {
                writer.close();
                translog.close();
                Translog.deleteBelow(path, Long.MAX_VALUE);
            }
        } finally {
            try {
                directory.close();
            } finally {
                writeLock.unlock();
                IdleMergeTurn.release(this); // closing waited for its merges; the turn would not keep a closed index reachable
            }
        }
    }
}
