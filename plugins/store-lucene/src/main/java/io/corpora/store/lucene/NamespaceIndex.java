package io.corpora.store.lucene;

import io.corpora.spi.Namespace;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.similarities.Similarity;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;

/**
 * One namespace's Lucene index on disk: its writer, and a {@link SearcherManager} of near-real-time searchers
 * over it. Writes are applied one at a time, each followed by a refresh (so a reader sees every write whole or not at
 * all, and the next write sees this one); then, unless background commits are configured, the write returns only once a
 * commit covers it, so a returned write survives {@code kill -9}. Commits are <em>grouped</em>: writers waiting at the
 * same time share one commit (one fsync), led by whichever arrives first while no commit runs; the commit itself
 * excludes changes (it must never see half of one), and writers queued behind it apply first — the classic group
 * commit of databases, which keeps "durable when acknowledged" and costs concurrent writers one fsync, not one each.
 */
final class NamespaceIndex implements Closeable {

    /** Commit user data recording what the index was built with, checked at every open. */
    static final String METRIC_KEY = "corpora.metric";
    static final String ANALYZER_KEY = "corpora.analyzer";

    @FunctionalInterface
    interface Read<T> {
        T apply(IndexSearcher searcher) throws IOException;
    }

    @FunctionalInterface
    interface Write<T> {
        /** Changes the index; the searcher sees every earlier write (but none of this one). */
        T apply(IndexWriter writer, IndexSearcher current) throws IOException;
    }

    private final Namespace namespace;
    private final Path path;
    private final boolean commitEveryWrite;
    private final Directory directory;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final ReentrantLock writeLock = new ReentrantLock(true); // fair: see awaitCommitOf
    private volatile boolean uncommitted;
    private volatile boolean failed;
    /** Writes applied so far (incremented under the write lock, after the change). */
    private final AtomicLong applied = new AtomicLong();
    private final Object commits = new Object();
    /** Writes covered by a finished commit; guarded by {@link #commits}. */
    private long committed;
    /** Whether a commit is running; guarded by {@link #commits}. */
    private boolean committing;

    private NamespaceIndex(Namespace namespace, Path path, boolean commitEveryWrite, Directory directory, IndexWriter writer,
                           SearcherManager searchers) {
        this.namespace = namespace;
        this.path = path;
        this.commitEveryWrite = commitEveryWrite;
        this.directory = directory;
        this.writer = writer;
        this.searchers = searchers;
    }

    static NamespaceIndex open(Namespace namespace, Path path, LuceneStoreSettings settings, Analyzer analyzer, Codec codec,
                               Similarity similarity) throws IOException {
        Directory directory = FSDirectory.open(path);
        try {
            Map<String, String> built = DirectoryReader.indexExists(directory) ? SegmentInfos.readLatestCommit(directory).getUserData() : Map.of();
            requireSame(namespace, METRIC_KEY, built.get(METRIC_KEY), settings.metric().name());
            requireSame(namespace, ANALYZER_KEY, built.get(ANALYZER_KEY), settings.analyzer());
            IndexWriterConfig config = new IndexWriterConfig(analyzer)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setCodec(codec)
                    .setSimilarity(similarity)
                    .setRAMBufferSizeMB(settings.ramBufferMb())
                    .setCommitOnClose(true);
            IndexWriter writer = new IndexWriter(directory, config);
            writer.setLiveCommitData(Map.of(METRIC_KEY, settings.metric().name(), ANALYZER_KEY, settings.analyzer()).entrySet());
            SearcherManager searchers = new SearcherManager(writer, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(org.apache.lucene.index.IndexReader reader, org.apache.lucene.index.IndexReader previous) {
                    IndexSearcher searcher = new IndexSearcher(reader);
                    searcher.setSimilarity(similarity);
                    return searcher;
                }
            });
            return new NamespaceIndex(namespace, path, settings.commitsOnEveryWrite(), directory, writer, searchers);
        } catch (IOException | RuntimeException e) {
            directory.close();
            throw e;
        }
    }

    private static void requireSame(Namespace namespace, String key, String built, String configured) {
        if (built != null && !built.equals(configured)) {
            throw new IllegalStateException("the index of namespace '" + namespace + "' was built with " + key + "=" + built
                    + " but the store is configured with " + configured + "; re-index the namespace or restore the setting");
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

    <T> T read(Read<T> read) throws IOException {
        IndexSearcher searcher = searchers.acquire();
        try {
            return read.apply(searcher);
        } finally {
            searchers.release(searcher);
        }
    }

    /**
     * Applies one change, commits it (or marks it for the background commit) and refreshes the searchers. A change
     * that fails leaves this index failed: the caller must close it, which rolls back to the last commit.
     */
    <T> T write(Write<T> change) throws IOException {
        T result;
        long mine;
        writeLock.lock();
        try {
            if (failed) {
                throw new IllegalStateException("the index of namespace '" + namespace + "' failed and is being reopened; retry");
            }
            result = read(current -> change.apply(writer, current));
            mine = applied.incrementAndGet();
            if (!commitEveryWrite) {
                uncommitted = true;
            }
            searchers.maybeRefreshBlocking();
        } catch (IOException | RuntimeException | Error e) {
            failed = true;
            throw e;
        } finally {
            writeLock.unlock();
        }
        if (commitEveryWrite) {
            awaitCommitOf(mine);
        }
        return result;
    }

    /**
     * Returns once a commit covers write number {@code mine}: an earlier commit that started after it was applied, one
     * running now that started late enough (else the next), or a commit this thread runs for every waiter. A commit that
     * fails fails this index: every writer it was to cover is told, none is acknowledged, and the close rolls back.
     */
    private void awaitCommitOf(long mine) throws IOException {
        synchronized (commits) {
            while (committed < mine && committing && !failed) {
                try {
                    commits.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failed = true; // this write's durability is unknown: roll back rather than half-acknowledge it
                    throw new IllegalStateException("interrupted while waiting for the commit of namespace '" + namespace + "'", e);
                }
            }
            if (committed >= mine) {
                return;
            }
            if (failed) {
                throw new IllegalStateException("the commit of namespace '" + namespace + "' failed; the write was rolled back, retry");
            }
            committing = true;
        }
        // The commit holds the write lock: a commit running beside a change would make half of it durable (a batch is
        // many updateDocument calls). Writers queued on the (fair) lock apply first, so this commit covers them too.
        long covers = 0;
        boolean done = false;
        writeLock.lock();
        try {
            if (failed) {
                throw new IllegalStateException("the index of namespace '" + namespace + "' failed; the write was rolled back, retry");
            }
            covers = applied.get();
            writer.commit();
            done = true;
        } catch (IOException | RuntimeException | Error e) {
            failed = true;
            throw e;
        } finally {
            writeLock.unlock();
            synchronized (commits) {
                committing = false;
                if (done) {
                    committed = Math.max(committed, covers);
                }
                commits.notifyAll();
            }
        }
    }

    /** Commits writes made since the last commit (background commit policy). */
    void commitIfNeeded() throws IOException {
        if (!uncommitted) {
            return;
        }
        writeLock.lock();
        try {
            if (uncommitted && !failed && writer.isOpen()) {
                uncommitted = false;
                writer.commit();
            }
        } finally {
            writeLock.unlock();
        }
    }

    /** Commits and closes; a failed index is rolled back to its last commit instead. */
    @Override
    public void close() throws IOException {
        writeLock.lock();
        try {
            searchers.close();
            if (failed) {
                writer.rollback();
            } else {
                writer.close();
            }
        } finally {
            try {
                directory.close();
            } finally {
                writeLock.unlock();
            }
        }
    }
}
