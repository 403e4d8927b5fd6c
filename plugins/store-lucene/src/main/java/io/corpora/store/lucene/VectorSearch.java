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
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
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
 */
final class VectorSearch {

    private final LuceneStoreSettings settings;

    VectorSearch(LuceneStoreSettings settings) {
        this.settings = settings;
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
        int passing = searcher.count(withVector);
        if (passing == 0) {
            return new Outcome(List.of(), Strategy.NONE, 0);
        }
        int candidates = settings.numCandidates(request.topK());
        ScoreDoc[] found;
        Strategy strategy;
        if (passing <= settings.exactSearchThreshold()) {
            found = exactSearch(searcher, field, query, withVector, candidates);
            strategy = Strategy.EXACT;
        } else {
            KnnFloatVectorQuery knn = new KnnFloatVectorQuery(field, query, Math.min(candidates, passing),
                    filter instanceof MatchAllDocsQuery ? null : withVector);
            found = bestCandidates(searcher.search(knn, knn.getK()).scoreDocs, candidates);
            strategy = Strategy.HNSW;
        }
        List<Candidate> rescored = rescore(searcher, field, query, found);
        List<ScoredChunk> hits = Candidate.toResults(searcher, Candidate.withIds(searcher, rescored), request.minScore(),
                request.topK(), request.includeEmbeddings());
        return new Outcome(hits, strategy, passing);
    }

    /**
     * Scores every document passing the filter with Lucene's (SIMD-capable) similarity and keeps the best
     * {@code limit} of them, plus any tied with the last.
     */
    private ScoreDoc[] exactSearch(IndexSearcher searcher, String field, float[] query, Query filter, int limit) throws IOException {
        VectorSimilarityFunction similarity = ChunkDocuments.luceneSimilarity(settings.metric());
        Weight weight = searcher.createWeight(searcher.rewrite(filter), ScoreMode.COMPLETE_NO_SCORES, 1f);
        List<ScoreDoc> scored = new ArrayList<>();
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            Scorer scorer = weight.scorer(leaf);
            FloatVectorValues values = leaf.reader().getFloatVectorValues(field);
            if (scorer == null || values == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            DocIdSetIterator docs = scorer.iterator();
            for (int doc = docs.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = docs.nextDoc()) {
                if (live != null && !live.get(doc)) {
                    continue;
                }
                if (values.docID() < doc) {
                    values.advance(doc);
                }
                if (values.docID() == doc) {
                    scored.add(new ScoreDoc(leaf.docBase + doc, similarity.compare(query, values.vectorValue())));
                }
            }
        }
        scored.sort((a, b) -> Float.compare(b.score, a.score));
        return bestCandidates(scored.toArray(ScoreDoc[]::new), limit);
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
