package io.corpora.engine.retriever;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A test input: an embedder whose vectors are a lookup table, so expected neighbours are known exactly. */
final class TableEmbedder implements Embedder {

    private final Map<String, float[]> table = new HashMap<>();
    private final EmbedderFingerprint fingerprint;
    final List<String> embeddedDocuments = new ArrayList<>();

    TableEmbedder(String model, int dimension) {
        this.fingerprint = new EmbedderFingerprint("table", model, dimension, false, "test");
    }

    TableEmbedder put(String text, float... vector) {
        table.put(text, vector);
        return this;
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return fingerprint;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        embeddedDocuments.addAll(texts);
        return texts.stream().map(this::lookup).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return lookup(query);
    }

    private float[] lookup(String text) {
        float[] v = table.get(text);
        if (v == null) {
            throw new IllegalArgumentException("no test vector for '" + text + "'");
        }
        return v.clone();
    }
}
