package io.corpora.cli.eval;

import io.corpora.engine.embed.ForwardingEmbedder;
import io.corpora.spi.embed.Embedder;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * An embedder that remembers vectors on disk so evaluation reruns skip the model: one append-only file per
 * embedder fingerprint id ({@code <dir>/<fingerprint-id>.vectors}), each record the SHA-256 of
 * {@code kind + text} (kind: document or query, since queries carry an instruction) and the vector. A truncated
 * last record (a crash mid-write) is ignored. Same fingerprint ⇒ same model bytes ⇒ same vectors, so the cache
 * never serves a vector another model made. Settings that change the vectors of one model are a <em>variant</em>, part
 * of the keys they affect (a query instruction changes query vectors only), so a run with other settings never reads
 * this one's vectors.
 */
public final class CachingEmbedder extends ForwardingEmbedder {

    private static final int KEY_BYTES = 32;
    /**
     * The key kind of query vectors. "q2" since the bundled bge embeds queries without its instruction by default; the
     * query vectors of earlier caches ("q") were made with it, under the same fingerprint, so they are never read again.
     */
    private static final String QUERY_KIND = "q2";

    private final Path file;
    private final int dimension;
    private final Map<String, float[]> vectors = new HashMap<>();
    private final FileChannel channel;
    private int hits;
    private int misses;
    private final String documentVariant;
    private final String queryVariant;

    public CachingEmbedder(Embedder delegate, Path directory) {
        this(delegate, directory, "", "");
    }

    /**
     * @param documentVariant the settings that made the document vectors ("" for the defaults: the keys of earlier caches)
     * @param queryVariant    the settings that made the query vectors
     */
    public CachingEmbedder(Embedder delegate, Path directory, String documentVariant, String queryVariant) {
        super(delegate);
        this.documentVariant = java.util.Objects.requireNonNull(documentVariant, "documentVariant");
        this.queryVariant = java.util.Objects.requireNonNull(queryVariant, "queryVariant");
        this.dimension = delegate.fingerprint().dimension();
        this.file = directory.resolve(delegate.fingerprint().id() + ".vectors");
        try {
            Files.createDirectories(directory);
            load();
            this.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the embedding cache " + file, e);
        }
    }

    private void load() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        int recordBytes = KEY_BYTES + dimension * Float.BYTES;
        try (InputStream raw = Files.newInputStream(file); DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw, 1 << 16))) {
            byte[] record = new byte[recordBytes];
            while (true) {
                try {
                    in.readFully(record);
                } catch (EOFException e) {
                    return;
                }
                ByteBuffer buffer = ByteBuffer.wrap(record).order(ByteOrder.LITTLE_ENDIAN);
                byte[] key = new byte[KEY_BYTES];
                buffer.get(key);
                float[] v = new float[dimension];
                buffer.asFloatBuffer().get(v);
                vectors.put(HexFormat.of().formatHex(key), v);
            }
        }
    }

    @Override
    public synchronized List<float[]> embedDocuments(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        List<String> missingTexts = new ArrayList<>();
        List<Integer> missingAt = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            float[] cached = vectors.get(key("d" + documentVariant, texts.get(i)));
            out.add(cached);
            if (cached == null) {
                missingTexts.add(texts.get(i));
                missingAt.add(i);
            }
        }
        hits += texts.size() - missingTexts.size();
        if (!missingTexts.isEmpty()) {
            misses += missingTexts.size();
            List<float[]> fresh = delegate.embedDocuments(missingTexts);
            for (int j = 0; j < fresh.size(); j++) {
                out.set(missingAt.get(j), fresh.get(j));
                remember(key("d" + documentVariant, missingTexts.get(j)), fresh.get(j));
            }
        }
        return out.stream().map(float[]::clone).toList();
    }

    @Override
    public synchronized float[] embedQuery(String query) {
        String key = key(QUERY_KIND + queryVariant, query);
        float[] cached = vectors.get(key);
        if (cached != null) {
            hits++;
            return cached.clone();
        }
        misses++;
        float[] fresh = delegate.embedQuery(query);
        remember(key, fresh);
        return fresh.clone();
    }

    private void remember(String key, float[] vector) {
        if (vector.length != dimension) {
            throw new IllegalStateException("embedder returned " + vector.length + " dimensions; its fingerprint says " + dimension);
        }
        vectors.put(key, vector.clone());
        ByteBuffer buffer = ByteBuffer.allocate(KEY_BYTES + dimension * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put(HexFormat.of().parseHex(key));
        buffer.asFloatBuffer().put(vector);
        buffer.position(buffer.capacity()).flip();
        try {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the embedding cache " + file, e);
        }
    }

    private static String key(String kind, String text) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(kind.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            return HexFormat.of().formatHex(sha.digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }

    public synchronized int hits() {
        return hits;
    }

    public synchronized int misses() {
        return misses;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the embedding cache " + file, e);
        } finally {
            delegate.close();
        }
    }
}
