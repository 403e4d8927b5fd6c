package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.util.QueryBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The keyword leg's options against scores computed independently: plain Lucene indexes of the same texts for BM25,
 * and the RM3 formula worked by hand over a small index for pseudo-relevance feedback.
 */
class KeywordScoringTest {

    private static final Namespace NS = Namespace.of("acme");
    private static final MetadataFilter ALL = MetadataFilter.all();

    @TempDir
    Path data;

    /** A chunk as the engine writes it: index text = title, heading path, then the text (the contextualizer's shape). */
    private static EmbeddedChunk chunk(String id, String title, List<String> headings, String text, Map<String, Object> extra) {
        Map<String, Object> metadata = new HashMap<>(extra);
        if (title != null) {
            metadata.put("title", title);
        }
        Chunk chunk = new Chunk(id, "doc-" + id, 0, text, headings, metadata);
        String context = ChunkDocuments.titleText(chunk).replace('\n', ' ');
        return new EmbeddedChunk(chunk, context.isEmpty() ? text : context + "\n\n" + text, null);
    }

    private static List<EmbeddedChunk> titledCorpus() {
        return List.of(
                chunk("in-title", "Glacier retreat", List.of(), "Ice sheets lose mass each summer.", Map.of()),
                chunk("in-text", "Polar survey", List.of("Methods"), "The glacier glacier front was mapped by the glacier team.", Map.of()),
                chunk("in-heading", "Field notes", List.of("Glacier camp"), "Tents and stoves for the crew.", Map.of()),
                chunk("none", null, List.of(), "Deserts receive little rain.", Map.of()));
    }

    private static Map<String, Double> scores(List<ScoredChunk> hits) {
        Map<String, Double> scores = new LinkedHashMap<>();
        hits.forEach(h -> scores.put(h.chunk().id(), h.score()));
        return scores;
    }

    /** BM25 scores of a query over one field of a plain Lucene index holding the given texts, by chunk id. */
    private static Map<String, Double> plainLuceneScores(Map<String, String> textById, String query) throws IOException {
        try (Directory dir = new ByteBuffersDirectory(); EnglishAnalyzer analyzer = new EnglishAnalyzer()) {
            try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity()))) {
                for (Map.Entry<String, String> e : textById.entrySet()) {
                    Document doc = new Document();
                    doc.add(new StringField("id", e.getKey(), Field.Store.YES));
                    doc.add(new TextField("f", e.getValue(), Field.Store.NO));
                    writer.addDocument(doc);
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setSimilarity(new BM25Similarity());
                Map<String, Double> scores = new HashMap<>();
                for (ScoreDoc hit : searcher.search(new QueryBuilder(analyzer).createBooleanQuery("f", query, Occur.SHOULD), 100).scoreDocs) {
                    scores.put(searcher.storedFields().document(hit.doc).get("id"), (double) hit.score);
                }
                return scores;
            }
        }
    }

    @Test
    void titleTextIsTheTitleThenTheHeadingPathWithoutRepeatingATitleThePathStartsWith() {
        assertEquals("Guide\nSetup\nLinux", ChunkDocuments.titleText(new Chunk("c", "d", 0, "t", List.of("Setup", "Linux"), Map.of("title", "Guide"))));
        assertEquals("Guide\nSetup", ChunkDocuments.titleText(new Chunk("c", "d", 0, "t", List.of("Guide", "Setup"), Map.of("title", " Guide "))));
        assertEquals("Setup", ChunkDocuments.titleText(new Chunk("c", "d", 0, "t", List.of("Setup"), Map.of("title", 42))),
                "a title that is not a string is no title");
        assertEquals("", ChunkDocuments.titleText(new Chunk("c", "d", 0, "t", List.of(), Map.of())));
    }

    @Test
    void withBothOptionsOffKeywordScoresAreExactlyPlainLuceneBm25OfTheIndexText() throws IOException {
        List<EmbeddedChunk> corpus = titledCorpus();
        Map<String, String> indexTexts = new LinkedHashMap<>();
        corpus.forEach(c -> indexTexts.put(c.chunk().id(), c.indexText()));
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            store.upsert(NS, corpus);
            Map<String, Double> actual = scores(store.search(NS, SearchRequest.keyword("glacier mass", 10, ALL, null, null)));
            assertEquals(plainLuceneScores(indexTexts, "glacier mass"), actual, "bit-identical: compared with ==");
            assertEquals(List.of("in-title", "in-text", "in-heading"), new ArrayList<>(actual.keySet()));
        }
    }

    @Test
    void aTitleBoostAddsTheBoostedBm25OfTheTitleFieldToTheBodys() throws IOException {
        List<EmbeddedChunk> corpus = titledCorpus();
        Map<String, String> indexTexts = new LinkedHashMap<>();
        Map<String, String> titles = new LinkedHashMap<>();
        for (EmbeddedChunk c : corpus) {
            indexTexts.put(c.chunk().id(), c.indexText());
            if (!ChunkDocuments.titleText(c.chunk()).isEmpty()) {
                titles.put(c.chunk().id(), ChunkDocuments.titleText(c.chunk()));
            }
        }
        Map<String, Double> body = plainLuceneScores(indexTexts, "glacier");
        Map<String, Double> title = plainLuceneScores(titles, "glacier");
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("keyword.titleBoost", "2.5"))) {
            store.upsert(NS, corpus);
            Map<String, Double> actual = scores(store.search(NS, SearchRequest.keyword("glacier", 10, ALL, null, null)));
            assertEquals(body.keySet(), actual.keySet());
            for (String id : body.keySet()) {
                double expected = body.get(id) + 2.5 * title.getOrDefault(id, 0.0);
                assertEquals(expected, actual.get(id), 1e-5 * expected, id);
            }
            assertEquals("in-text", new ArrayList<>(body.entrySet()).stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey(),
                    "without the boost the chunk repeating the word wins");
            assertEquals(List.of("in-title", "in-heading", "in-text"), new ArrayList<>(actual.keySet()),
                    "with it, the chunks titled by the word (title or heading) come first");
        }
    }

    @Test
    void chunksWrittenWithTheBoostOffHaveNoTitleFieldSoTurningItOnScoresThemAsBefore() {
        List<EmbeddedChunk> corpus = titledCorpus();
        Map<String, Double> before;
        try (LuceneVectorStore off = StoreFixtures.open(data, Map.of())) {
            off.upsert(NS, corpus);
            before = scores(off.search(NS, SearchRequest.keyword("glacier", 10, ALL, null, null)));
        }
        try (LuceneVectorStore on = StoreFixtures.open(data, Map.of("keyword.titleBoost", "2"))) {
            assertEquals(before, scores(on.search(NS, SearchRequest.keyword("glacier", 10, ALL, null, null))),
                    "nothing to boost until the chunks are written again");
            on.upsert(NS, corpus);
            assertFalse(before.equals(scores(on.search(NS, SearchRequest.keyword("glacier", 10, ALL, null, null)))),
                    "rewritten chunks carry the title field");
        }
    }

    // ------------------------------------------------------------------------------------------- feedback

    /** Two rock chunks that share a vocabulary, one that shares it without the query word, and 27 unrelated fillers. */
    private static List<EmbeddedChunk> rockCorpus() {
        List<EmbeddedChunk> corpus = new ArrayList<>(List.of(
                chunk("a", null, List.of(), "quartz feldspar feldspar mica", Map.of("group", "open")),
                chunk("b", null, List.of(), "quartz feldspar basalt", Map.of("group", "open")),
                chunk("c", null, List.of(), "feldspar mica", Map.of("group", "open"))));
        IntStream.range(0, 27).forEach(i -> corpus.add(chunk(String.format("f%02d", i), null, List.of(),
                "filler" + i + " padding" + i, Map.of("group", "open"))));
        return corpus;
    }

    @Test
    void feedbackWeightsAreTheRm3FormulaOverTheFirstPassHits() throws IOException {
        Map<String, Double> firstPass;
        try (LuceneVectorStore off = StoreFixtures.open(data.resolve("off"), Map.of())) {
            off.upsert(NS, rockCorpus());
            firstPass = scores(off.search(NS, SearchRequest.keyword("quartz", 10, ALL, null, null)));
        }
        assertEquals(List.of("b", "a"), new ArrayList<>(firstPass.keySet()), "the shorter chunk first");
        double sa = firstPass.get("a");
        double sb = firstPass.get("b");
        // a: quartz 1, feldspar 2, mica 1 of 4; b: quartz, feldspar, basalt, 1 of 3 each; every term in <= 3 of 30 chunks
        double mass = sa + sb;
        Map<String, Double> model = Map.of("quartz", (sa / 4 + sb / 3) / mass, "feldspar", (sa / 2 + sb / 3) / mass,
                "mica", (sa / 4) / mass, "basalt", (sb / 3) / mass);
        double w = 0.3;
        Map<String, Double> expected = new HashMap<>();
        model.forEach((t, p) -> expected.put(t, (1 - w) * p));
        expected.merge("quartz", w, Double::sum); // the one-term query: n = 1, q(quartz) = 1

        try (Directory dir = new ByteBuffersDirectory(); EnglishAnalyzer analyzer = new EnglishAnalyzer()) {
            try (IndexWriter writer = new IndexWriter(dir, new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity()))) {
                for (EmbeddedChunk c : rockCorpus()) {
                    writer.addDocument(ChunkDocuments.toDocument(c, VectorSimilarity.COSINE, false));
                }
            }
            try (DirectoryReader reader = DirectoryReader.open(dir)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setSimilarity(new BM25Similarity());
                RelevanceFeedback feedback = new RelevanceFeedback(analyzer, new KeywordOptions(0, 2, 10, (float) w));
                Query firstQuery = new QueryBuilder(analyzer).createBooleanQuery(ChunkDocuments.BODY, "quartz", Occur.SHOULD);
                Map<String, Double> actual = feedback.expansionWeights(searcher, "quartz", firstQuery);
                assertEquals(expected.keySet(), actual.keySet());
                expected.forEach((t, weight) -> assertEquals(weight, actual.get(t), 1e-6, t));

                // two terms: a keeps feldspar 2/3 and mica 1/3 (mica sorts before quartz at a tie), b basalt and feldspar, 1/2 each;
                // the model's two heaviest are feldspar and basalt (sb > sa), then the query's own word joins them
                RelevanceFeedback twoTerms = new RelevanceFeedback(analyzer, new KeywordOptions(0, 2, 2, (float) w));
                double kept = 2 * sa / 3 + sb / 2 + sb / 2;
                Map<String, Double> pruned = Map.of("quartz", w, "feldspar", (1 - w) * (2 * sa / 3 + sb / 2) / kept,
                        "basalt", (1 - w) * (sb / 2) / kept);
                Map<String, Double> actualPruned = twoTerms.expansionWeights(searcher, "quartz", firstQuery);
                assertEquals(pruned.keySet(), actualPruned.keySet());
                pruned.forEach((t, weight) -> assertEquals(weight, actualPruned.get(t), 1e-6, t));
            }
        }
    }

    @Test
    void feedbackFindsAChunkThatSharesTheHitsVocabularyButNotTheQueryWord() {
        try (LuceneVectorStore off = StoreFixtures.open(data.resolve("off"), Map.of());
             LuceneVectorStore on = StoreFixtures.open(data.resolve("on"), Map.of("keyword.prf.chunks", "2"))) {
            off.upsert(NS, rockCorpus());
            on.upsert(NS, rockCorpus());
            assertEquals(List.of("b", "a"), ids(off.search(NS, SearchRequest.keyword("quartz", 10, ALL, null, null))));
            List<String> expanded = ids(on.search(NS, SearchRequest.keyword("quartz", 10, ALL, null, null)));
            assertEquals(3, expanded.size(), expanded.toString());
            assertEquals("c", expanded.get(2), "c has the hits' feldspar and mica but not the query's quartz: found, and last");
        }
    }

    @Test
    void atQueryWeightOneTheExpandedQueryScoresAsTheOriginal() {
        try (LuceneVectorStore off = StoreFixtures.open(data.resolve("off"), Map.of());
             LuceneVectorStore original = StoreFixtures.open(data.resolve("w1"), Map.of("keyword.prf.chunks", "2", "keyword.prf.queryWeight", "1"))) {
            off.upsert(NS, rockCorpus());
            original.upsert(NS, rockCorpus());
            // a repeated query word counts twice in both
            Map<String, Double> expected = scores(off.search(NS, SearchRequest.keyword("quartz mica quartz", 10, ALL, null, null)));
            Map<String, Double> actual = scores(original.search(NS, SearchRequest.keyword("quartz mica quartz", 10, ALL, null, null)));
            assertEquals(new ArrayList<>(expected.keySet()), new ArrayList<>(actual.keySet()));
            expected.forEach((id, score) -> assertEquals(score, actual.get(id), 1e-5 * score, id));
        }
    }

    @Test
    void feedbackLearnsOnlyFromChunksTheFilterLetsThrough() {
        List<EmbeddedChunk> corpus = new ArrayList<>(rockCorpus());
        corpus.add(chunk("hidden", null, List.of(), "quartz obsidian obsidian", Map.of("group", "secret")));
        corpus.add(chunk("visible", null, List.of(), "obsidian", Map.of("group", "open")));
        MetadataFilter open = MetadataFilter.eq("group", "open");
        try (LuceneVectorStore on = StoreFixtures.open(data, Map.of("keyword.prf.chunks", "3"))) {
            on.upsert(NS, corpus);
            assertTrue(ids(on.search(NS, SearchRequest.keyword("quartz", 10, ALL, null, null))).contains("visible"),
                    "unfiltered, the hidden chunk's word expands the query");
            List<String> filtered = ids(on.search(NS, SearchRequest.keyword("quartz", 10, open, null, null)));
            assertFalse(filtered.contains("visible"), "filtered, it does not: " + filtered);
            assertFalse(filtered.contains("hidden"));
        }
    }

    private static List<String> ids(List<ScoredChunk> hits) {
        return hits.stream().map(h -> h.chunk().id()).toList();
    }
}
