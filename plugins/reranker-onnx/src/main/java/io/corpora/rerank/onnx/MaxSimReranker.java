package io.corpora.rerank.onnx;

import io.corpora.onnx.BiEncoder;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.onnx.Truncation;
import io.corpora.spi.VectorMath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Sentence-level MaxSim with a bi-encoder: a passage scores by its best-matching sentence's cosine with the query,
 * blended with the whole passage's cosine:
 * {@code score = (1 - passageWeight) * max_s cos(q, s) + passageWeight * cos(q, passage)}.
 * A passage that answers the query in one sentence among unrelated ones is no longer diluted by them.
 * Vectors are cached by text, since reranked candidates recur across queries.
 */
final class MaxSimReranker extends CheckedReranker {

    private final BiEncoder encoder;
    private final InferenceWorkers workers;
    private final SentenceSplitter splitter;
    private final EmbeddingCache cache;
    private final double passageWeight;
    private final boolean fuseWithInputOrder;

    MaxSimReranker(BiEncoder encoder, InferenceWorkers workers, SentenceSplitter splitter, EmbeddingCache cache, double passageWeight,
                   boolean fuseWithInputOrder) {
        this.encoder = encoder;
        this.workers = workers;
        this.splitter = splitter;
        this.cache = cache;
        this.passageWeight = passageWeight;
        this.fuseWithInputOrder = fuseWithInputOrder;
    }

    @Override
    double[] scoreNonEmpty(String query, List<String> texts) {
        // Scoring only: a sentence longer than the model reads is cut (and logged), never refused.
        float[] q = workers.call(() -> encoder.embedQuery(query, Truncation.WARN));
        List<List<String>> sentences = texts.stream().map(splitter::split).toList();
        Set<String> needed = new LinkedHashSet<>();
        sentences.forEach(needed::addAll);
        if (passageWeight > 0) {
            needed.addAll(texts);
        }
        Map<String, float[]> vectors = vectorsOf(needed);
        double[] scores = new double[texts.size()];
        for (int i = 0; i < texts.size(); i++) {
            double best = -1;
            for (String sentence : sentences.get(i)) {
                best = Math.max(best, VectorMath.dotProduct(q, vectors.get(sentence)));
            }
            if (sentences.get(i).isEmpty()) {
                best = 0; // blank passage
            }
            double passage = passageWeight > 0 && !texts.get(i).isBlank() ? VectorMath.dotProduct(q, vectors.get(texts.get(i))) : 0;
            scores[i] = (1 - passageWeight) * best + passageWeight * passage;
        }
        return fuseWithInputOrder ? InputOrderFusion.fuse(scores) : scores;
    }

    private Map<String, float[]> vectorsOf(Set<String> texts) {
        Map<String, float[]> out = new HashMap<>();
        List<String> missing = new ArrayList<>();
        for (String text : texts) {
            cache.get(text).ifPresentOrElse(v -> out.put(text, v), () -> missing.add(text));
        }
        List<float[]> computed = workers.map(missing, text -> encoder.embed(text, Truncation.WARN));
        for (int i = 0; i < missing.size(); i++) {
            out.put(missing.get(i), computed.get(i));
            cache.put(missing.get(i), computed.get(i));
        }
        return out;
    }

    @Override
    public void close() {
        workers.close();
        encoder.close();
    }
}
