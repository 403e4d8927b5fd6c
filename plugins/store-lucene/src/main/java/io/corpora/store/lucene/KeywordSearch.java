package io.corpora.store.lucene;

import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.MatchAllDocsQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.util.QueryBuilder;

/**
 * The BM25 leg over the analysed index text. The query text is analysed into terms with the index's analyzer
 * (never parsed as query syntax), any term may match, and the metadata filter restricts without scoring. Options
 * ({@link KeywordOptions}): the title field's BM25, boosted, adds to the body's, and pseudo-relevance feedback
 * replaces the body query by its expansion ({@link RelevanceFeedback}) learnt from the filtered first pass.
 */
final class KeywordSearch {

    private final Analyzer analyzer;
    private final KeywordOptions options;
    private final RelevanceFeedback feedback;
    private final ReaderCounts counts;

    KeywordSearch(Analyzer analyzer, KeywordOptions options, ReaderCounts counts) {
        this.analyzer = analyzer;
        this.options = options;
        this.feedback = new RelevanceFeedback(analyzer, options);
        this.counts = counts;
    }

    List<ScoredChunk> search(IndexSearcher searcher, SearchRequest request, Query requested) throws IOException {
        QueryBuilder builder = new QueryBuilder(analyzer);
        Query body = builder.createBooleanQuery(ChunkDocuments.BODY, request.text(), Occur.SHOULD);
        if (body == null) {
            return List.of(); // only stop words
        }
        Query title = options.titleField() ? builder.createBooleanQuery(ChunkDocuments.TITLE, request.text(), Occur.SHOULD) : null;
        Query filter = passesEveryChunk(searcher, requested) ? new MatchAllDocsQuery() : requested;
        if (options.feedback()) {
            Query expanded = feedback.expand(searcher, request.text(), filtered(withTitle(body, title), filter));
            body = expanded == null ? body : expanded;
        }
        Query query = filtered(withTitle(body, title), filter);
        int topK = request.topK();
        int fetch = topK + 16;
        while (true) {
            ScoreDoc[] found = searcher.search(query, fetch).scoreDocs;
            List<Candidate> candidates = new ArrayList<>(found.length);
            for (ScoreDoc hit : found) {
                candidates.add(new Candidate(hit.doc, hit.score, null, null));
            }
            candidates = Candidate.withIds(searcher, candidates);
            // Lucene breaks score ties by doc id; when a tie reaches past what was fetched, fetch more so ids decide.
            if (found.length == fetch && found.length >= topK) {
                List<Candidate> ordered = new ArrayList<>(candidates);
                ordered.sort(Candidate.CONTRACT_ORDER);
                if (ordered.get(topK - 1).score() == found[found.length - 1].score && fetch < Integer.MAX_VALUE / 4) {
                    fetch *= 4;
                    continue;
                }
            }
            if (request.includeEmbeddings()) {
                candidates = Candidate.withStoredVectors(searcher, candidates);
            }
            return Candidate.toResults(searcher, candidates, request.minScore(), topK, request.includeEmbeddings());
        }
    }

    /**
     * Whether every live chunk passes the filter (on this searcher's point-in-time view), so the text query may run
     * alone with the same result: the usual filter is the embedder fingerprint every chunk carries, and a filter clause
     * turns BM25's top-k search into a conjunction that checks the filter's postings at every candidate (a quarter of
     * the keyword leg's samples on a 100,000-chunk tenant).
     */
    private boolean passesEveryChunk(IndexSearcher searcher, Query filter) throws IOException {
        return filter instanceof MatchAllDocsQuery || counts.count(searcher, filter) == searcher.getIndexReader().numDocs();
    }

    /** BM25 of the body plus the boosted BM25 of the title field: a chunk matching in both scores in both. */
    private Query withTitle(Query body, Query title) {
        if (title == null) {
            return body;
        }
        return new BooleanQuery.Builder().add(body, Occur.SHOULD).add(new BoostQuery(title, options.titleBoost()), Occur.SHOULD).build();
    }

    private static Query filtered(Query text, Query filter) {
        return filter instanceof MatchAllDocsQuery ? text : new BooleanQuery.Builder().add(text, Occur.MUST).add(filter, Occur.FILTER).build();
    }
}
