package io.corpora.store.lucene;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.zip.CRC32;
import org.apache.lucene.util.IOUtils;

/**
 * A namespace's write-ahead log (translog), as Elasticsearch and OpenSearch keep one beside each Lucene shard: an upsert
 * is appended here and applied to the index writer, and is durable once an fsync of the log covers it, so a write no
 * longer needs a Lucene commit (which flushes and fsyncs a segment) to be acknowledged. Lucene commits happen in the
 * background and record the generation their replay starts from; older generations are then deleted.
 *
 * <p>Files {@code translog-<generation>.tlog} in the index directory (Lucene never uses or deletes that name): an 8-byte
 * header (magic, format), then records framed as {@code [length][CRC32][payload]}. A crash mid-append leaves a torn or
 * corrupt tail, never acknowledged; replay stops there. Appends are serialised by the caller (the namespace's write
 * lock); {@link #awaitDurable} may be called by many threads at once and groups them: writers waiting together share one
 * fsync, led by whichever arrives while none runs — the group commit of databases, on the log instead of the index.
 */
final class Translog implements Closeable {

    private static final String PREFIX = "translog-";
    private static final String SUFFIX = ".tlog";
    private static final int MAGIC = 0x43544c47; // "CTLG"
    private static final int FORMAT = 1;
    private static final int HEADER_BYTES = 8;
    private static final int FRAME_BYTES = 8;

    /** What a replay found. */
    record Replay(long records, long lastGeneration, String tornTail) {}

    private final Path directory;
    /** The current generation's file; null until its first append (an idle namespace holds only Lucene's write lock). */
    private volatile FileChannel channel;
    private volatile long generation;
    /** Records appended so far; written by the serialised appends, read by the fsync leader. */
    private volatile long appended;
    /** Where the last record starts in the current generation, to take it back if applying it failed. */
    private long lastRecordStart;
    /** Held while an fsync runs and while the generation changes, so an fsync never meets a closed channel. */
    private final ReentrantLock syncLock = new ReentrantLock();
    private final Object durability = new Object();
    /** Records covered by a finished fsync; guarded by {@link #durability}. */
    private long durable;
    /** Whether an fsync leader is running; guarded by {@link #durability}. */
    private boolean syncing;
    /** The failure of the last fsync; guarded by {@link #durability}. Once set, nothing more is acknowledged. */
    private IOException failure;

    private Translog(Path directory, long generation) {
        this.directory = directory;
        this.generation = generation;
    }

    /** A log whose next append starts generation {@code generation} (its file is created then, never before). */
    static Translog startingAt(Path directory, long generation) {
        return new Translog(directory, generation);
    }

    private static FileChannel newGeneration(Path directory, long generation) throws IOException {
        FileChannel channel = FileChannel.open(fileOf(directory, generation), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        try {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC).putInt(FORMAT).flip();
            writeFully(channel, header);
            channel.force(false);
            IOUtils.fsync(directory, true); // the new file's name must survive a power loss too
            return channel;
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
    }

    static Path fileOf(Path directory, long generation) {
        return directory.resolve(PREFIX + generation + SUFFIX);
    }

    long generation() {
        return generation;
    }

    /** Bytes of records in the current generation. */
    long bytes() throws IOException {
        FileChannel current = channel;
        return current == null ? 0 : current.position() - HEADER_BYTES;
    }

    /** Appends one record (written to the file, not yet fsynced); returns its sequence number for {@link #awaitDurable}. */
    long append(byte[] payload) throws IOException {
        if (channel == null) {
            syncLock.lock(); // the fsync leader reads the channel under it
            try {
                channel = newGeneration(directory, generation);
            } finally {
                syncLock.unlock();
            }
        }
        CRC32 crc = new CRC32();
        crc.update(payload);
        ByteBuffer frame = ByteBuffer.allocate(FRAME_BYTES + payload.length).putInt(payload.length).putInt((int) crc.getValue()).put(payload).flip();
        lastRecordStart = channel.position();
        writeFully(channel, frame);
        return ++appended;
    }

    /** Takes the last record back (its upsert failed to apply), so a replay never applies a write that was refused. */
    void discardLast() throws IOException {
        if (channel == null) {
            return; // its generation could not even be created: nothing was written
        }
        channel.truncate(lastRecordStart);
        channel.position(lastRecordStart);
    }

    /**
     * Returns once an fsync covers record {@code sequence}: one that finished after it was appended, or the next, which
     * this thread runs for every waiter if no other does. An fsync that fails fails every waiter and all later ones.
     */
    void awaitDurable(long sequence) throws IOException {
        synchronized (durability) {
            while (durable < sequence && syncing && failure == null) {
                try {
                    durability.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for the translog fsync", e);
                }
            }
            if (durable >= sequence) {
                return;
            }
            if (failure != null) {
                throw new IOException("the translog fsync failed; the write is not acknowledged", failure);
            }
            syncing = true;
        }
        long covers = 0;
        IOException failed = null;
        syncLock.lock();
        try {
            covers = appended; // every record counted here was written before this fsync starts
            if (channel != null) { // null: rolled since, and the roll fsynced every record before it
                channel.force(false);
            }
        } catch (IOException e) {
            failed = e;
            throw e;
        } finally {
            syncLock.unlock();
            synchronized (durability) {
                syncing = false;
                if (failed == null) {
                    durable = Math.max(durable, covers);
                } else {
                    failure = failed;
                }
                durability.notifyAll();
            }
        }
    }

    /** Makes every record appended so far durable (background durability, {@code commitInterval} &gt; 0). */
    void sync() throws IOException {
        awaitDurable(appended);
    }

    /**
     * Ends the current generation: fsyncs and closes it (so everything appended so far is durable, and acknowledged to its
     * waiters); the next append starts generation + 1 in a new file. The caller holds off appends meanwhile. Returns the
     * new generation.
     */
    long roll() throws IOException {
        syncLock.lock();
        try {
            long covers = appended;
            FileChannel previous = channel;
            if (previous != null) {
                previous.force(false);
                channel = null;
                previous.close();
            }
            generation++;
            synchronized (durability) {
                durable = Math.max(durable, covers);
                durability.notifyAll();
            }
            return generation;
        } finally {
            syncLock.unlock();
        }
    }

    /** Deletes the generations below {@code generation} (a commit covers them). */
    static void deleteBelow(Path directory, long generation) throws IOException {
        for (long old : generations(directory)) {
            if (old < generation) {
                Files.deleteIfExists(fileOf(directory, old));
            }
        }
    }

    /** Fsyncs what was appended and closes the file; waiters are acknowledged by that fsync. */
    @Override
    public void close() throws IOException {
        syncLock.lock();
        try {
            FileChannel current = channel;
            if (current != null && current.isOpen()) {
                long covers = appended;
                current.force(false);
                current.close();
                synchronized (durability) {
                    durable = Math.max(durable, covers);
                    durability.notifyAll();
                }
            }
        } finally {
            syncLock.unlock();
        }
    }

    /**
     * Hands every whole record of generations {@code fromGeneration} and later to {@code records}, oldest first. A
     * generation stops at its first torn or corrupt record (a crash mid-append: never acknowledged); later generations are
     * still read.
     */
    static Replay replay(Path directory, long fromGeneration, Consumer<byte[]> records) throws IOException {
        long[] count = {0};
        Consumer<byte[]> counted = record -> {
            records.accept(record);
            count[0]++;
        };
        long last = 0;
        String torn = null;
        for (long generation : generations(directory)) {
            last = Math.max(last, generation);
            if (generation < fromGeneration) {
                continue;
            }
            try (FileChannel file = FileChannel.open(fileOf(directory, generation), StandardOpenOption.READ)) {
                String stop = replayGeneration(file, counted);
                if (stop != null && torn == null) {
                    torn = "generation " + generation + " " + stop;
                }
            }
        }
        return new Replay(count[0], last, torn);
    }

    /** Replays one generation; returns null when it ends cleanly, else where and why it stopped. */
    private static String replayGeneration(FileChannel file, Consumer<byte[]> records) throws IOException {
        long size = file.size();
        if (size < HEADER_BYTES) {
            return null; // created, header not yet written: empty
        }
        ByteBuffer header = readFully(file, HEADER_BYTES);
        if (header.getInt() != MAGIC || header.getInt() != FORMAT) {
            return "has no translog header";
        }
        while (file.position() < size) {
            long at = file.position();
            if (size - at < FRAME_BYTES) {
                return "is torn at byte " + at;
            }
            ByteBuffer frame = readFully(file, FRAME_BYTES);
            int length = frame.getInt();
            int expected = frame.getInt();
            if (length <= 0 || length > size - at - FRAME_BYTES) {
                return "is torn at byte " + at;
            }
            byte[] payload = readFully(file, length).array();
            CRC32 crc = new CRC32();
            crc.update(payload);
            if ((int) crc.getValue() != expected) {
                return "has a corrupt record at byte " + at;
            }
            records.accept(payload);
        }
        return null;
    }

    private static ByteBuffer readFully(FileChannel file, int bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(bytes);
        while (buffer.hasRemaining()) {
            if (file.read(buffer) < 0) {
                throw new java.io.EOFException("translog ended inside a record");
            }
        }
        return buffer.flip();
    }

    /** The generations present, ascending. */
    static List<Long> generations(Path directory) throws IOException {
        List<Long> found = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, PREFIX + "*" + SUFFIX)) {
            for (Path file : files) {
                String name = file.getFileName().toString();
                try {
                    found.add(Long.parseLong(name.substring(PREFIX.length(), name.length() - SUFFIX.length())));
                } catch (NumberFormatException ignored) {
                    // not one of ours
                }
            }
        }
        found.sort(null);
        return found;
    }

    private static void writeFully(FileChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }
}
