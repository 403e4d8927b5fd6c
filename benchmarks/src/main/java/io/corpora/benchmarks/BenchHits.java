package io.corpora.benchmarks;

import io.corpora.engine.retriever.Passages;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.tenancy.ReservedKeyStamper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Hit lists shaped as a tenant's store returns them: chunks of ~1,000 characters stamped as the ingest pipeline stamps
 * them (tenant, partition, document, version 1, embedder), with two caller metadata keys; a vector leg's scores in
 * (0.6, 0.9], a keyword leg's BM25-like scores in (5, 25], and half of the keyword leg's chunks also in the vector
 * leg (so fusion merges duplicates, as it does on real queries).
 */
final class BenchHits {

    static final String EMBEDDER_ID = ConstantEmbedder.FINGERPRINT.id();
    private static final String TEXT = "Vitamin D deficiency and the risk of respiratory infection in adults: a cohort study. ".repeat(12);

    private BenchHits() {}

    static List<ScoredChunk> vectorLeg(Namespace namespace, int size, long seed) {
        return leg(namespace, size, 0, 0.6, 0.3, seed);
    }

    /** Chunks {@code size/2 .. 3 size/2}: the first half shared with {@link #vectorLeg} of the same size. */
    static List<ScoredChunk> keywordLeg(Namespace namespace, int size, long seed) {
        return leg(namespace, size, size / 2, 5, 20, seed);
    }

    /** The hits as a leg hands them to fusion. */
    static List<Passage> passages(List<ScoredChunk> hits) {
        return hits.stream().map(Passages::fromHit).toList();
    }

    private static List<ScoredChunk> leg(Namespace namespace, int size, int firstChunk, double floor, double range, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[] scores = new double[size];
        for (int i = 0; i < size; i++) {
            scores[i] = floor + range * random.nextDouble(1e-9, 1.0);
        }
        java.util.Arrays.sort(scores);
        List<ScoredChunk> hits = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            int index = firstChunk + i;
            String documentId = "doc-" + (index / 3);
            Chunk raw = new Chunk(documentId + "#" + index, documentId, index % 3, TEXT, List.of("Results"),
                    Map.of("source", "pubmed", "year", 2019L));
            Map<String, Object> metadata = new LinkedHashMap<>(ReservedKeyStamper.stamp(raw, namespace, documentId, 1).metadata());
            metadata.put(ReservedKeys.EMBEDDER, EMBEDDER_ID);
            hits.add(new ScoredChunk(raw.withMetadata(metadata), scores[size - 1 - i]));
        }
        return hits;
    }
}
