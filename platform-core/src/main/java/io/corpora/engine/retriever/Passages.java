package io.corpora.engine.retriever;

import io.corpora.spi.Chunk;
import io.corpora.spi.Passage;
import io.corpora.spi.store.ScoredChunk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Passage construction and the score contract: finite scores, sorted descending, ties broken by id. */
public final class Passages {

    /** Descending score, then ascending id: a total order, so equal inputs always give equal output. */
    public static final Comparator<Passage> RANK_ORDER =
            Comparator.comparingDouble(Passage::score).reversed().thenComparing(Passage::id);

    private Passages() {}

    public static Passage fromChunk(Chunk chunk, double score) {
        Map<String, Object> metadata = new LinkedHashMap<>(chunk.metadata());
        metadata.putIfAbsent(PassageKeys.DOCUMENT, chunk.documentId());
        metadata.put(PassageKeys.CHUNK_INDEX, chunk.index());
        if (!chunk.headingPath().isEmpty()) {
            metadata.put(PassageKeys.HEADING_PATH, chunk.headingPath());
        }
        Object source = metadata.get(PassageKeys.SOURCE);
        return new Passage(chunk.id(), chunk.text(), score, source instanceof String s ? s : chunk.documentId(), metadata);
    }

    public static Passage fromHit(ScoredChunk hit) {
        return fromChunk(hit.chunk(), hit.score());
    }

    /** Sorted into rank order, keeping each id's best-scored copy once. */
    public static List<Passage> ranked(List<Passage> passages) {
        List<Passage> sorted = new ArrayList<>(passages);
        sorted.sort(RANK_ORDER);
        Set<String> seen = new HashSet<>();
        List<Passage> unique = new ArrayList<>(sorted.size());
        for (Passage p : sorted) {
            if (seen.add(p.id())) {
                unique.add(p);
            }
        }
        return unique;
    }

    /** Whether the list honours the score contract (used by tests and by stages that trust their input). */
    public static boolean inRankOrder(List<Passage> passages) {
        for (int i = 1; i < passages.size(); i++) {
            if (RANK_ORDER.compare(passages.get(i - 1), passages.get(i)) > 0) {
                return false;
            }
        }
        return true;
    }

    /** The document id and chunk index the engine stamped on a passage, or null when absent. */
    static String documentId(Passage passage) {
        return passage.metadata().get(PassageKeys.DOCUMENT) instanceof String s ? s : null;
    }

    static Integer chunkIndex(Passage passage) {
        return passage.metadata().get(PassageKeys.CHUNK_INDEX) instanceof Number n ? n.intValue() : null;
    }
}
