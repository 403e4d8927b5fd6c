package io.corpora.store.lucene;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeSet;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.Bits;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.FieldExistsQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;

/**
 * The vector leg. The metadata filter is the kNN pre-filter; when few chunks pass it (at most
 * {@code exactSearchThreshold}) every one of them is scored, without the graph, so a selective filter keeps full
 * recall (Lucene's filtered HNSW also falls back to exact scoring when the filter is smaller than its candidate
 * list or when graph exploration visits more nodes than pass the filter).
 * Otherwise HNSW explores {@code max(topK x numCandidatesFactor, minCandidates)} candidates. Every candidate is
 * then rescored from its stored float vector with {@link VectorSimilarity#score} (exact contract scores even
 * with a quantised graph), floored by minScore, ordered and cut to topK.
 *
 * <p>Per-call costs kept off the path: a namespace of at most {@code exactSearchThreshold} live chunks is scanned
 * without a count query first (the scan counts); an exact scan keeps scores in primitive arrays and finds its cut with
 * a bounded heap; a filter every vector passes (the embedder fingerprint, usually) is not handed to the graph search;
 * how many documents pass a filter is counted once per reader ({@link ReaderCounts}), not once per query.
 */
final class VectorSearch {

    private final LuceneStoreSettings settings;
    private final ReaderCounts counts;

    VectorSearch(LuceneStoreSettings settings, ReaderCounts counts) {
        this.settings = settings;
        this.counts = counts;
    }

    /** How the last search ran; for tests and benchmarks. */
    enum Strategy { NONE, EXACT, HNSW }

    record Outcome(List<ScoredChunk> hits, Strategy strategy, int filtered) {}

    Outcome search(IndexSearcher searcher, SearchRequest request, Query filter) throws IOException {
        float[] query = request.vector();
        ChunkDocuments.requireUsableVector(query, settings.metric(), "the query vector");
        String field = ChunkDocuments.vectorField(query.length);
        if (!hasField(searcher, field)) {
            TreeSet<Integer> widths = storedWidths(searcher);
            if (widths.isEmpty()) {
                return new Outcome(List.of(), Strategy.NONE, 0);
            }
            throw new IllegalArgumentException("the query vector has " + query.length + " dimensions but this namespace holds vectors of "
                    + widths + " dimensions");
        }
        Query withVector = new BooleanQuery.Builder()
                .add(filter, Occur.FILTER)
                .add(new FieldExistsQuery(field), Occur.FILTER)
                .build();
        int candidates = settings.numCandidates(request.topK());
        int live = searcher.getIndexReader().numDocs();
        int passing;
        ScoreDoc[] found;
        Strategy strategy;
        if (live <= settings.exactSearchThreshold()) {
            // Whatever passes the filter is few enough to scan, and the scan counts it: no count query first.
            ScoreBuffer scored = exactScan(searcher, field, query, withVector, live);
            passing = scored.size();
            found = scored.best(candidates);
            strategy = Strategy.EXACT;
        } else {
            passing = counts.count(searcher, withVector);
            if (passing == 0) {
                return new Outcome(List.of(), Strategy.NONE, 0);
            }
            if (passing <= settings.exactSearchThreshold()) {
                found = exactScan(searcher, field, query, withVector, passing).best(candidates);
                strategy = Strategy.EXACT;
            } else {
                KnnFloatVectorQuery knn = new KnnFloatVectorQuery(field, query, Math.min(candidates, passing),
                        passesEveryVector(searcher, filter, field, passing, counts) ? null : withVector);
                found = bestCandidates(searcher.search(knn, knn.getK()).scoreDocs, candidates);
                strategy = Strategy.HNSW;
            }
        }
        if (passing == 0) { // the scan found nothing passing
            return new Outcome(List.of(), Strategy.NONE, 0);
        }
        List<Candidate> rescored = rescore(searcher, field, query, found);
        List<ScoredChunk> hits = Candidate.toResults(searcher, rescored, request.minScore(), request.topK(), request.includeEmbeddings());
        return new Outcome(hits, strategy, passing);
    }

    /**
     * Scores every document passing the filter with the field's own vector scorer (Lucene's SIMD-capable similarity,
     * reading the vectors where they lie). Scores go to primitive arrays, and {@link ScoreBuffer#best} finds the cut
     * with a bounded heap, so a scan allocates nothing per document and sorts nothing.
     *
     * @param expected about how many documents pass (the buffer's first capacity)
     */
    private static ScoreBuffer exactScan(IndexSearcher searcher, String field, float[] query, Query filter, int expected)
            throws IOException {
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        ScoreBuffer scored = new ScoreBuffer(Math.min(expected, 1 << 16));
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Scorer scorer = weight.scorer(leaf);
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            if (scorer == null || values == null) {
                continue;
            }
            VectorScorer similarity = values.scorer(query);
            DocIdSetIterator withVector = similarity.iterator();
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator docs = scorer.iterator();
            for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                if (withVector.docID() < doc) {
                    withVector.advance(doc);
                }
                if (withVector.docID() == doc) {
                    scored.add(leaf.docBase + doc, similarity.score());
                }
            }
        }
        return scored;
    }

    /** Scores of an exact scan, in doc order, in primitive arrays that grow as needed. */
    private static final class ScoreBuffer {
        private int[] docs;
        private float[] scores;
        private int size;

        ScoreBuffer(int capacity) {
            docs = new int[Math.max(16, capacity)];
            scores = new float[docs.length];
        }

        int size() {
            return size;
        }

        void add(int doc, float score) {
            if (size == docs.length) {
                docs = Arrays.copyOf(docs, size * 2);
                scores = Arrays.copyOf(scores, size * 2);
            }
            docs[size] = doc;
            scores[size] = score;
            size++;
        }

        /** Every document scoring at least the {@code limit}-th best score: the best {@code limit}, and ties with the last. */
        ScoreDoc[] best(int limit) {
            boolean all = size <= limit; // then no score is compared, whatever it is
            float cut = all ? Float.NEGATIVE_INFINITY : limitThBest(limit);
            List<ScoreDoc> kept = new ArrayList<>(Math.min(size, limit + 8));
            for (int i = 0; i < size; i++) {
                if (all || scores[i] >= cut) {
                    kept.add(new ScoreDoc(docs[i], scores[i]));
                }
            }
            return kept.toArray(ScoreDoc[]::new);
        }

        /** The {@code limit}-th largest score, by a min-heap of the best {@code limit} seen (most scores lose at the root). */
        private float limitThBest(int limit) {
            float[] heap = Arrays.copyOf(scores, limit);
            for (int i = limit / 2 - 1; i >= 0; i--) {
                siftDown(heap, i, limit);
            }
            for (int i = limit; i < size; i++) {
                if (scores[i] > heap[0]) {
                    heap[0] = scores[i];
                    siftDown(heap, 0, limit);
                }
            }
            return heap[0];
        }

        private static void siftDown(float[] heap, int at, int length) {
            float value = heap[at];
            while (true) {
                int child = 2 * at + 1;
                if (child >= length) {
                    break;
                }
                if (child + 1 < length && heap[child + 1] < heap[child]) {
                    child++;
                }
                if (heap[child] >= value) {
                    break;
                }
                heap[at] = heap[child];
                at = child;
            }
            heap[at] = value;
        }
    }

    /**
     * The first {@code limit} hits of Lucene's score order, plus any hit tied with the last one (so ids, not doc
     * order, break the tie later). An exact search returns every filtered document; only the best need rescoring.
     */
    private static ScoreDoc[] bestCandidates(ScoreDoc[] found, int limit) {
        if (found.length <= limit) {
            return found;
        }
        int end = limit;
        while (end < found.length && found[end].score == found[limit - 1].score) {
            end++;
        }
        return Arrays.copyOf(found, end);
    }

    /** Exact contract scores from the stored float vectors (the graph may hold quantised ones). */
    private List<Candidate> rescore(IndexSearcher searcher, String field, float[] query, ScoreDoc[] found) throws IOException {
        ScoreDoc[] byDoc = found.clone();
        Arrays.sort(byDoc, (a, b) -> Integer.compare(a.doc, b.doc));
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        List<Candidate> out = new ArrayList<>(byDoc.length);
        int currentLeaf = -1;
        FloatVectorValues values = null;
        LeafReaderContext leaf = null;
        for (ScoreDoc hit : byDoc) {
            int leafIndex = ReaderUtil.subIndex(hit.doc, leaves);
            if (leafIndex != currentLeaf) {
                currentLeaf = leafIndex;
                leaf = leaves.get(leafIndex);
                values = leaf.reader().getFloatVectorValues(field);
            }
            int target = hit.doc - leaf.docBase;
            if (values == null || values.advance(target) != target) {
                throw new IllegalStateException("vector of document " + hit.doc + " vanished from field " + field);
            }
            float[] vector = values.vectorValue().clone();
            out.add(new Candidate(hit.doc, settings.metric().score(query, vector), null, vector));
        }
        return out;
    }

    /**
     * Whether every live document holding a vector in {@code field} passes the filter (on this searcher's point-in-time
     * view), so the kNN search may run unfiltered with the same result: a filter makes Lucene build a bit set of every
     * passing document per search, which on a large tenant costs as much as the graph search. The usual case: the filter
     * is the embedder fingerprint alone, which every chunk of a tenant outside a re-embedding carries. Counting vector
     * documents is free on segments without deletions.
     */
    private static boolean passesEveryVector(IndexSearcher searcher, Query filter, String field, int passing, ReaderCounts counts)
            throws IOException {
        return filter instanceof MatchAllDocsQuery || counts.count(searcher, new FieldExistsQuery(field)) == passing;
    }

    private static boolean hasField(IndexSearcher searcher, String field) {
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FieldInfo info = leaf.reader().getFieldInfos().fieldInfo(field);
            if (info != null && info.getVectorDimension() > 0) {
                return true;
            }
        }
        return false;
    }

    private static TreeSet<Integer> storedWidths(IndexSearcher searcher) {
        TreeSet<Integer> widths = new TreeSet<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            for (FieldInfo info : leaf.reader().getFieldInfos()) {
                if (info.name.startsWith(ChunkDocuments.VECTOR_PREFIX) && info.getVectorDimension() > 0) {
                    widths.add(info.getVectorDimension());
                }
            }
        }
        return widths;
    }
}
