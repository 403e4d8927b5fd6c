package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.spi.Passage;
import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The eval pipeline end to end on a small BEIR folder written by the test, with the SPI kit's exact store. */
class EvalRunTest {

    private static final int DIMENSION = 64;

    @TempDir
    Path dir;

    private void writeDataset() throws IOException {
        StringBuilder corpus = new StringBuilder();
        String[] topics = {"volcano lava eruption", "penguin antarctic ice", "violin orchestra music", "bread yeast oven", "comet orbit telescope"};
        for (int i = 0; i < topics.length; i++) {
            corpus.append(String.format("{\"_id\":\"d%d\",\"title\":\"%s\",\"text\":\"%s\"}%n", i, topics[i],
                    ("A long paragraph about " + topics[i] + " with many words. ").repeat(30)));
        }
        corpus.append("{\"_id\":\"q4\",\"title\":\"comet orbit telescope\",\"text\":\"comet orbit telescope\"}\n");
        Files.writeString(dir.resolve("corpus.jsonl"), corpus);
        Files.writeString(dir.resolve("queries.jsonl"), """
                {"_id":"q0","text":"lava eruption"}
                {"_id":"q1","text":"antarctic penguin"}
                {"_id":"q2","text":"orchestra violin"}
                {"_id":"q4","text":"comet telescope"}
                {"_id":"q9","text":"query without qrels"}
                """);
        Files.writeString(dir.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\nq0\td0\t1\nq1\td1\t1\nq2\tmissing\t1\nq4\td4\t1\n");
    }

    @Test
    void indexesThroughTheChunkerAndAveragesOverQueriesWithQrels() throws IOException {
        writeDataset();
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
        EvalRun.Settings settings = new EvalRun.Settings(EvalMode.VECTOR, ChunkingOptions.of(300, 50), 100, 20, 0, "test");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        EvalReport report = new EvalRun(settings, new EvalRun.Components(store, TestEmbedder.ofDimension(DIMENSION), null),
                new PrintStream(progress, true, StandardCharsets.UTF_8)).run(BeirDataset.open(dir, "test"));

        assertEquals(4, report.queries(), "q9 has no qrels and is not averaged");
        assertEquals(6, report.documents());
        assertTrue(report.chunks() > 12, "each long abstract became several chunks: " + report.chunks());
        // q0, q1 and q4 find their document first (q4 never retrieves its namesake document 'q4'); q2 judges a document the corpus lacks, so it scores 0
        assertEquals(0.75, report.ndcg10(), 1e-9);
        assertEquals(0.75, report.mrr10(), 1e-9);
        assertEquals(0.75, report.recall100(), 1e-9);
        assertTrue(report.p99Millis() >= report.p50Millis());

        JsonNode line = new ObjectMapper().readTree(report.toJson());
        List<String> keys = new ArrayList<>();
        line.fieldNames().forEachRemaining(keys::add);
        assertEquals(List.of("ndcg@10", "recall@100", "mrr@10", "queries", "failed", "mode", "configuration", "ingest_seconds", "p50_ms", "p99_ms"), keys);
        assertEquals(0, line.get("failed").asInt());
        assertEquals(4, line.get("queries").asInt());
    }

    @Test
    void aFailingQueryScoresZeroIsCountedAndTheRunGoesOn() throws IOException {
        writeDataset();
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
        // an embedder that refuses one query the way a failing model would
        TestEmbedder words = TestEmbedder.ofDimension(DIMENSION);
        io.corpora.spi.embed.Embedder failing = new io.corpora.spi.embed.Embedder() {
            @Override
            public io.corpora.spi.EmbedderFingerprint fingerprint() {
                return words.fingerprint();
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                return words.embedDocuments(texts);
            }

            @Override
            public float[] embedQuery(String query) {
                if (query.contains("antarctic")) {
                    throw new IllegalStateException("model crashed");
                }
                return words.embedQuery(query);
            }
        };
        EvalRun.Settings settings = new EvalRun.Settings(EvalMode.VECTOR, ChunkingOptions.of(300, 50), 100, 20, 0, "test");
        EvalReport report = new EvalRun(settings, new EvalRun.Components(store, failing, null),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).run(BeirDataset.open(dir, "test"));
        assertEquals(4, report.queries());
        assertEquals(1, report.failedQueries());
        assertTrue(report.failures().get(0).startsWith("q1: java.lang.IllegalStateException: model crashed"), report.failures().toString());
        assertEquals(0.5, report.ndcg10(), 1e-9, "q0 and q4 score 1, q1 (failed) and q2 (judged document missing) 0");
        assertTrue(report.toTable().contains("1 queries failed and scored 0"), report.toTable());
    }

    @Test
    void documentsCanScoreTheSumOfTheirBestChunks() {
        Passage a1 = new Passage("a:0", "t", 0.9, "", Map.of("_document", "a"));
        Passage b1 = new Passage("b:0", "t", 0.8, "", Map.of("_document", "b"));
        Passage b2 = new Passage("b:1", "t", 0.7, "", Map.of("_document", "b"));
        Passage b3 = new Passage("b:2", "t", 0.6, "", Map.of("_document", "b"));
        Passage a2 = new Passage("a:1", "t", 0.1, "", Map.of("_document", "a"));
        List<Passage> ranking = List.of(a1, b1, b2, b3, a2);
        assertEquals(List.of("a", "b"), DocumentRanking.of(ranking, "q", 1), "best chunk: a 0.9 over b 0.8");
        assertEquals(List.of("b", "a"), DocumentRanking.of(ranking, "q", 2), "best two: b 1.5 over a 1.0");
        assertEquals(List.of("b", "a"), DocumentRanking.of(ranking, "q", 3), "best three: b 2.1 over a 1.0");
    }

    @Test
    void oneRunMeasuresEveryDocumentScoreOverTheSameChunkRankings() throws IOException {
        writeDataset();
        List<EvalReport> together = runVector(List.of(1, 2, 3));
        assertEquals(3, together.size());
        assertTrue(together.get(0).configuration().endsWith("test"), together.get(0).configuration());
        assertTrue(together.get(1).configuration().endsWith(", document = sum of best 2 chunks"), together.get(1).configuration());
        assertTrue(together.get(2).configuration().endsWith(", document = sum of best 3 chunks"), together.get(2).configuration());
        for (int i = 0; i < 3; i++) {
            EvalReport alone = runVector(List.of(i + 1)).get(0);
            assertEquals(alone.ndcg10(), together.get(i).ndcg10(), 1e-12, "N = " + (i + 1));
            assertEquals(alone.recall100(), together.get(i).recall100(), 1e-12);
            assertEquals(alone.mrr10(), together.get(i).mrr10(), 1e-12);
        }
    }

    private List<EvalReport> runVector(List<Integer> documentChunks) throws IOException {
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
        EvalRun.Settings settings = new EvalRun.Settings(EvalMode.VECTOR, ChunkingOptions.of(300, 50), 100, 20, 0, "test",
                List.of(), false, documentChunks);
        return new EvalRun(settings, new EvalRun.Components(store, TestEmbedder.ofDimension(DIMENSION), null),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)).runAll(BeirDataset.open(dir, "test"));
    }

    @Test
    void documentScoresAreDistinctBoundedAndOnlyTheBestChunkWhenReranked() {
        ChunkingOptions chunking = ChunkingOptions.defaults();
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(1, 1)));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(0)));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(11)));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID_RERANK, chunking, 300, 20, 0, "x", List.of(), false, List.of(2)));
        assertEquals(List.of(1), new EvalRun.Settings(EvalMode.HYBRID_RERANK, chunking, 300, 20, 0, "x", List.of(), false, null).documentChunks());
    }

    @Test
    void theServedLegDepthIsForHybridModeAndAtMostTheDepth() {
        ChunkingOptions chunking = ChunkingOptions.defaults();
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.VECTOR, chunking, 300, 20, 0, "x", List.of(), false, List.of(1), List.of(50)));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(1), List.of(50, 301)));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(1), List.of(20, 20)));
        assertEquals(List.of(50, 20),
                new EvalRun.Settings(EvalMode.HYBRID, chunking, 300, 20, 0, "x", List.of(), false, List.of(1), List.of(50, 20)).servedLegDepths());
    }

    @Test
    void keywordVariantsNeedAKeywordLeg() {
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
        EvalRun.Components withVariant = new EvalRun.Components(store, TestEmbedder.ofDimension(DIMENSION), null,
                Map.of("keyword.titleBoost=1", new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION)));
        EvalRun.Settings vector = new EvalRun.Settings(EvalMode.VECTOR, ChunkingOptions.defaults(), 100, 20, 0, "x");
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> new EvalRun(vector, withVariant, System.err));
        assertTrue(refused.getMessage().contains("bm25 and hybrid"), refused.getMessage());
    }

    @Test
    void aQueryNeverRetrievesTheDocumentWithItsOwnId() {
        Passage self = new Passage("q4:0", "t", 0.9, "", Map.of("_document", "q4"));
        Passage other = new Passage("d4:0", "t", 0.8, "", Map.of("_document", "d4"));
        Passage otherAgain = new Passage("d4:1", "t", 0.7, "", Map.of("_document", "d4"));
        assertEquals(List.of("d4"), DocumentRanking.of(List.of(self, other, otherAgain), "q4"));
        assertEquals(List.of("a", "b", "c"), DocumentRanking.append(List.of("a", "b"), List.of("b", "c", "a")));
    }

    @Test
    void modesNeedTheirComponents() {
        EvalRun.Settings hybrid = new EvalRun.Settings(EvalMode.HYBRID_RERANK, ChunkingOptions.defaults(), 300, 20, 0, "x");
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 4);
        assertThrows(IllegalArgumentException.class, () -> new EvalRun(hybrid, new EvalRun.Components(store, null, null), System.err));
        assertThrows(IllegalArgumentException.class,
                () -> new EvalRun(hybrid, new EvalRun.Components(store, TestEmbedder.ofDimension(DIMENSION), null), System.err));
        assertThrows(IllegalArgumentException.class, () -> new EvalRun.Settings(EvalMode.BM25, ChunkingOptions.defaults(), 50, 20, 0, "x"));
    }
}
