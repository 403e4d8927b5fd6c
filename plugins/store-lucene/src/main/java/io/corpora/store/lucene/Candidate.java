package io.corpora.store.lucene;

import io.corpora.spi.store.ScoredChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.search.IndexSearcher;

/**
 * A scored hit before it becomes a {@link ScoredChunk}: Lucene doc id, contract score, chunk id (for the tie
 * break) and optionally its vector. Turning candidates into results applies the score contract in one place:
 * floor, then order by descending score and ascending id, then the top-K cut.
 */
record Candidate(int docId, double score, String chunkId, float[] vector) {

    static final Comparator<Candidate> CONTRACT_ORDER =
            Comparator.comparingDouble(Candidate::score).reversed().thenComparing(Candidate::chunkId);
    private static final Comparator<Candidate> BY_SCORE = Comparator.comparingDouble(Candidate::score).reversed();

    /** Reads the chunk id from doc values of each candidate that has none yet. */
    static List<Candidate> withIds(IndexSearcher searcher, List<Candidate> candidates) throws IOException {
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<Candidate> out = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            if (c.chunkId != null) {
                out.add(c);
                continue;
            }
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(c.docId, leaves));
            SortedDocValues ids = DocValues.getSorted(leaf.reader(), ChunkDocuments.ID);
            if (!ids.advanceExact(c.docId - leaf.docBase)) {
                throw new IllegalStateException("chunk document " + c.docId + " has no id");
            }
            out.add(new Candidate(c.docId, c.score, ids.lookupOrd(ids.ordValue()).utf8ToString(), c.vector));
        }
        return out;
    }

    /** Attaches each candidate's stored vector (of whichever width it has), for hits found without one. */
    static List<Candidate> withStoredVectors(IndexSearcher searcher, List<Candidate> candidates) throws IOException {
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<Candidate> out = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(c.docId, leaves));
            int target = c.docId - leaf.docBase;
            float[] vector = null;
            for (FieldInfo field : leaf.reader().getFieldInfos()) {
                if (field.name.startsWith(ChunkDocuments.VECTOR_PREFIX) && field.getVectorDimension() > 0) {
                    FloatVectorValues values = leaf.reader().getFloatVectorValues(field.name);
                    if (values != null && values.advance(target) == target) {
                        vector = values.vectorValue().clone();
                        break;
                    }
                }
            }
            out.add(new Candidate(c.docId, c.score, c.chunkId, vector));
        }
        return out;
    }

    /**
     * Floor, contract order, cut, and load the chunks. Ids are read only for the candidates that can make the cut (the
     * best {@code topK} by score and any tied with the last), since only ties need them to be ordered.
     */
    static List<ScoredChunk> toResults(IndexSearcher searcher, List<Candidate> candidates, Double minScore, int topK,
                                       boolean includeEmbeddings) throws IOException {
        List<Candidate> kept = new ArrayList<>(candidates.size());
        for (Candidate c : candidates) {
            if (minScore == null || c.score >= minScore) {
                kept.add(c);
            }
        }
        if (kept.isEmpty() || topK < 1) {
            return List.of();
        }
        kept.sort(BY_SCORE);
        int end = Math.min(topK, kept.size());
        double last = kept.get(end - 1).score;
        while (end < kept.size() && kept.get(end).score == last) {
            end++;
        }
        List<Candidate> contenders = withIds(searcher, kept.subList(0, end));
        contenders.sort(CONTRACT_ORDER);
        List<ScoredChunk> results = new ArrayList<>(Math.min(topK, contenders.size()));
        var storedFields = searcher.storedFields();
        for (Candidate c : contenders.subList(0, Math.min(topK, contenders.size()))) {
            results.add(new ScoredChunk(ChunkDocuments.readChunk(storedFields, c.docId), c.score,
                    includeEmbeddings && c.vector != null ? c.vector.clone() : null));
        }
        return results;
    }
}
