package io.corpora.engine.embed;

import io.corpora.spi.EmbedderFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The vectors one embedding model made, remembered on disk by the exact text and the settings that made them, so the
 * same text is not embedded twice (the eval's and the bench's cache, and the server's document cache at ingest).
 *
 * <p>Format: {@code <dir>/<fingerprint id>.<generation>.vectors}, a 16-byte header (magic, format, dimension) then
 * fixed-size records: the SHA-256 key of (fingerprint id, {@link Space}, text), the vector as little-endian float32
 * (the model's bits, unchanged) and a CRC32C of both. A record whose checksum or key does not match is a miss, never a
 * vector; a torn last record (a crash mid-write) is cut off at open. Only 8 bytes of each key and its record number
 * are held in memory (a lookup reads the record and compares the whole key), 24 to 48 bytes per vector.
 *
 * <p>Bounded by two generations of at most {@code maxBytes / 2} each: when the current one is full the older is
 * deleted and a new one started, and a vector read from the older is copied into the current, so what is used stays.
 * One process owns a directory's files (a lock file; a second process gets no cache, only a warning). An I/O error is
 * logged and makes lookups misses and writes no-ops: the cache never fails the embedding it fronts.
 */
public final class DiskEmbeddingCache implements AutoCloseable {

    /** 1 GiB: about 680,000 vectors of 384 dimensions. */
    public static final long DEFAULT_MAX_BYTES = 1L << 30;
    public static final long MIN_MAX_BYTES = 1L << 20;

    static final int MAGIC = 0x434F5256; // "CORV"
    static final int FORMAT = 1;
    static final int HEADER_BYTES = 16;
    static final int KEY_BYTES = 32;

    private static final Logger LOG = Logger.getLogger(DiskEmbeddingCache.class.getName());

    /**
     * Which vectors a key may find: whose ({@code owner}: a tenant, or "" for the command-line tools), of what kind of
     * text ({@code document} or {@code query}: queries may carry an instruction) and made with which settings of the
     * model (those its fingerprint does not name, e.g. a query instruction).
     */
    public record Space(String owner, String kind, String settings) {
        public Space {
            Objects.requireNonNull(owner, "owner");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(settings, "settings");
        }
    }

    private final Path directory;
    private final String fingerprintId;
    private final int dimension;
    private final int recordBytes;
    private final long generationBytes;
    private final FileChannel lockChannel;
    private final FileLock lock;
    private EmbeddingCacheFile current;
    private EmbeddingCacheFile previous;
    private long hits;
    private long misses;
    private boolean broken;

    private DiskEmbeddingCache(Path directory, String fingerprintId, int dimension, long maxBytes, FileChannel lockChannel, FileLock lock) {
        this.directory = directory;
        this.fingerprintId = fingerprintId;
        this.dimension = dimension;
        this.recordBytes = KEY_BYTES + dimension * Float.BYTES + Integer.BYTES;
        this.generationBytes = maxBytes / 2;
        this.lockChannel = lockChannel;
        this.lock = lock;
    }

    /**
     * Opens (or creates) the cache of {@code fingerprint}'s vectors in {@code directory}, at most {@code maxBytes} on disk.
     *
     * @throws UncheckedIOException when the directory cannot be used or another process holds it
     */
    public static DiskEmbeddingCache open(Path directory, EmbedderFingerprint fingerprint, long maxBytes) {
        if (maxBytes < MIN_MAX_BYTES) {
            throw new IllegalArgumentException("an embedding cache needs at least " + MIN_MAX_BYTES + " bytes, got " + maxBytes);
        }
        String id = fingerprint.id();
        FileChannel lockChannel = null;
        try {
            Files.createDirectories(directory);
            lockChannel = FileChannel.open(directory.resolve(id + ".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = lockChannel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                throw new IOException("another process (or another cache in this one) uses " + directory + " for " + id);
            }
            DiskEmbeddingCache cache = new DiskEmbeddingCache(directory, id, fingerprint.dimension(), maxBytes, lockChannel, lock);
            cache.openGenerations();
            return cache;
        } catch (IOException e) {
            closeQuietly(lockChannel);
            throw new UncheckedIOException("cannot open the embedding cache of " + id + " in " + directory + ": " + e.getMessage(), e);
        }
    }

    private void openGenerations() throws IOException {
        Pattern name = Pattern.compile(Pattern.quote(fingerprintId) + "\\.(\\d{1,9})\\.vectors");
        List<Integer> found = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.forEach(p -> {
                Matcher m = name.matcher(p.getFileName().toString());
                if (m.matches()) {
                    found.add(Integer.parseInt(m.group(1)));
                }
            });
        }
        found.sort(null);
        for (int i = 0; i < found.size() - 2; i++) { // beyond the bound: left by a crash during a rotation
            Files.deleteIfExists(generationFile(found.get(i)));
        }
        int newest = found.isEmpty() ? 1 : found.get(found.size() - 1);
        current = EmbeddingCacheFile.open(generationFile(newest), newest, dimension, recordBytes);
        if (found.size() >= 2) {
            int older = found.get(found.size() - 2);
            previous = EmbeddingCacheFile.open(generationFile(older), older, dimension, recordBytes);
        }
    }

    private Path generationFile(int generation) {
        return directory.resolve(fingerprintId + "." + generation + ".vectors");
    }

    /**
     * The vectors of {@code texts}: those cached from disk, the others from one call of {@code model} (with the missing
     * texts, in order), which are then remembered. The model is called outside the cache's lock.
     */
    public List<float[]> embed(Space space, List<String> texts, Function<List<String>, List<float[]>> model) {
        byte[][] keys = new byte[texts.size()][];
        float[][] vectors = new float[texts.size()][];
        List<String> missing = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        synchronized (this) {
            for (int i = 0; i < texts.size(); i++) {
                keys[i] = key(space, texts.get(i));
                vectors[i] = find(keys[i]);
                if (vectors[i] == null) {
                    missing.add(texts.get(i));
                    missingAt.add(i);
                }
            }
            hits += texts.size() - missing.size();
            misses += missing.size();
        }
        if (!missing.isEmpty()) {
            List<float[]> fresh = model.apply(missing);
            if (fresh.size() != missing.size()) {
                throw new IllegalStateException("the embedder returned " + fresh.size() + " vectors for " + missing.size() + " texts");
            }
            synchronized (this) {
                for (int j = 0; j < fresh.size(); j++) {
                    int at = missingAt.get(j);
                    vectors[at] = fresh.get(j);
                    remember(keys[at], fresh.get(j));
                }
            }
        }
        return Arrays.asList(vectors);
    }

    /** The cached vector of {@code text}, or null; not counted as a hit or miss. */
    public synchronized float[] get(Space space, String text) {
        return find(key(space, text));
    }

    /** Remembers {@code vector} as the one {@code text} has in {@code space} (a vector already cached for it stays). */
    public synchronized void put(Space space, String text, float[] vector) {
        remember(key(space, text), vector);
    }

    private float[] find(byte[] key) {
        if (broken) {
            return null;
        }
        try {
            float[] vector = current.find(key);
            if (vector == null && previous != null) {
                vector = previous.find(key);
                if (vector != null) {
                    append(key, vector); // still in use: keep it when the older generation goes
                }
            }
            return vector;
        } catch (IOException e) {
            fail("reading", e);
            return null;
        }
    }

    private void remember(byte[] key, float[] vector) {
        if (broken || vector.length != dimension) {
            if (vector.length != dimension) {
                LOG.warning("not caching a vector of " + vector.length + " dimensions: " + fingerprintId + " has " + dimension);
            }
            return;
        }
        try {
            if (current.find(key) == null) {
                append(key, vector);
            }
        } catch (IOException e) {
            fail("writing", e);
        }
    }

    private void append(byte[] key, float[] vector) throws IOException {
        if (current.bytes() + recordBytes > generationBytes) {
            rotate();
        }
        current.append(key, vector);
    }

    private void rotate() throws IOException {
        if (previous != null) {
            previous.close();
            Files.deleteIfExists(previous.path);
        }
        previous = current;
        current = EmbeddingCacheFile.open(generationFile(previous.number + 1), previous.number + 1, dimension, recordBytes);
    }

    private void fail(String doing, IOException e) {
        broken = true;
        LOG.log(Level.WARNING, "the embedding cache of " + fingerprintId + " in " + directory + " failed " + doing
                + "; embedding without it from now on", e);
    }

    private byte[] key(Space space, String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (String part : List.of(fingerprintId, space.owner(), space.kind(), space.settings())) {
                byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
                sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(bytes.length).array());
                sha.update(bytes);
            }
            return sha.digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }

    public synchronized long hits() {
        return hits;
    }

    public synchronized long misses() {
        return misses;
    }

    /** Vectors held on disk (both generations; a vector copied forward counts twice until the older one goes). */
    public synchronized long entries() {
        return current.records + (previous == null ? 0 : previous.records);
    }

    public synchronized long bytes() {
        return current.bytes() + (previous == null ? 0 : previous.bytes());
    }

    @Override
    public synchronized void close() {
        try {
            current.close();
            if (previous != null) {
                previous.close();
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "closing the embedding cache of " + fingerprintId, e);
        } finally {
            try {
                lock.release();
            } catch (IOException e) {
                LOG.log(Level.FINE, "releasing the lock of the embedding cache of " + fingerprintId, e);
            }
            closeQuietly(lockChannel);
        }
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                LOG.log(Level.FINE, "closing a cache file", e);
            }
        }
    }
}
