package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;

/**
 * Pseudo-relevance feedback for the keyword leg, RM3 as Anserini implements it: the first pass's top hits each give
 * their strongest terms (term frequency, L1-normalised), weighted by the hit's score and summed into a relevance
 * model, cut to its strongest terms and L1-normalised; the expanded query weighs each term
 * {@code n × (w × q(t) + (1 − w) × rm(t))}, with {@code q} the query's own term distribution, {@code n} its length and
 * {@code w} the original query's weight, so at {@code w = 1} it scores exactly as the original query.
 * A feedback hit's terms are its title, heading path and text, analysed with the index's analyzer; terms shorter than
 * two characters or in more than a tenth of the namespace's chunks are left out (too common to say what the hits
 * share, Anserini's rule).
 */
final class RelevanceFeedback {

    static final int MIN_TERM_LENGTH = 2;
    static final double MAX_CHUNK_FREQUENCY = 0.1;

    private final Analyzer analyzer;
    private final KeywordOptions options;

    RelevanceFeedback(Analyzer analyzer, KeywordOptions options) {
        this.analyzer = analyzer;
        this.options = options;
    }

    /** The expanded body query, or null when the first pass gives nothing to expand with (the original then stands). */
    Query expand(IndexSearcher searcher, String queryText, Query firstPass) throws IOException {
        Map<String, Double> weights = expansionWeights(searcher, queryText, firstPass);
        if (weights.isEmpty()) {
            return null;
        }
        BooleanQuery.Builder expanded = new BooleanQuery.Builder();
        weights.forEach((term, weight) -> expanded.add(new BoostQuery(new TermQuery(new Term(ChunkDocuments.BODY, term)),
                weight.floatValue()), Occur.SHOULD));
        return expanded.build();
    }

    /** Each term of the expanded query with its weight, by term; empty when there is nothing to expand with. */
    Map<String, Double> expansionWeights(IndexSearcher searcher, String queryText, Query firstPass) throws IOException {
        Map<String, Integer> query = termFrequencies(queryText);
        if (query.isEmpty()) {
            return Map.of();
        }
        ScoreDoc[] hits = searcher.search(firstPass, options.feedbackChunks()).scoreDocs;
        Map<String, Double> model = relevanceModel(searcher, hits);
        if (model.isEmpty()) {
            return Map.of();
        }
        int queryLength = query.values().stream().mapToInt(Integer::intValue).sum();
        double queryWeight = options.feedbackQueryWeight();
        Map<String, Double> weights = new TreeMap<>();
        query.forEach((term, count) -> weights.merge(term, queryWeight * count, Double::sum));
        model.forEach((term, p) -> weights.merge(term, (1 - queryWeight) * queryLength * p, Double::sum));
        weights.values().removeIf(w -> w <= 0);
        return weights;
    }

    /** The hits' strongest terms weighted by the hits' scores, normalised to sum to 1. */
    private Map<String, Double> relevanceModel(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
        IndexReader reader = searcher.getIndexReader();
        StoredFields stored = searcher.storedFields();
        Map<String, Boolean> discriminating = new HashMap<>();
        Map<String, Double> model = new HashMap<>();
        for (ScoreDoc hit : hits) {
            Chunk chunk = ChunkDocuments.readChunk(stored, hit.doc);
            Map<String, Double> terms = new HashMap<>();
            for (Map.Entry<String, Integer> tf : termFrequencies(ChunkDocuments.titleText(chunk) + "\n" + chunk.text()).entrySet()) {
                if (discriminating.computeIfAbsent(tf.getKey(), t -> discriminates(reader, t))) {
                    terms.put(tf.getKey(), tf.getValue().doubleValue());
                }
            }
            normalised(strongest(terms)).forEach((term, p) -> model.merge(term, p * hit.score, Double::sum));
        }
        return normalised(strongest(model));
    }

    private static boolean discriminates(IndexReader reader, String term) {
        if (term.length() < MIN_TERM_LENGTH) {
            return false;
        }
        try {
            return reader.docFreq(new Term(ChunkDocuments.BODY, term)) <= MAX_CHUNK_FREQUENCY * reader.numDocs();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code feedbackTerms} heaviest terms; ties go to the term that sorts first, so the choice is repeatable. */
    private Map<String, Double> strongest(Map<String, Double> terms) {
        List<Map.Entry<String, Double>> entries = new ArrayList<>(terms.entrySet());
        entries.sort(Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
        Map<String, Double> kept = new LinkedHashMap<>();
        entries.stream().limit(options.feedbackTerms()).forEach(e -> kept.put(e.getKey(), e.getValue()));
        return kept;
    }

    private static Map<String, Double> normalised(Map<String, Double> terms) {
        double sum = terms.values().stream().mapToDouble(Double::doubleValue).sum();
        Map<String, Double> out = new LinkedHashMap<>();
        if (sum > 0) {
            terms.forEach((term, w) -> out.put(term, w / sum));
        }
        return out;
    }

    /** The analysed terms of a text with their counts, as the index's analyzer makes them for the body field. */
    Map<String, Integer> termFrequencies(String text) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        try (TokenStream tokens = analyzer.tokenStream(ChunkDocuments.BODY, text)) {
            CharTermAttribute term = tokens.addAttribute(CharTermAttribute.class);
            tokens.reset();
            while (tokens.incrementToken()) {
                counts.merge(term.toString(), 1, Integer::sum);
            }
            tokens.end();
        }
        return counts;
    }
}
