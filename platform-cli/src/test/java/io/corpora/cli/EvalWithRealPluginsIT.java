package io.corpora.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code corpora eval} with the real plugin bundles the build unpacks into {@code target/plugins} (or
 * {@code -Dcorpora.plugins.dir}): the Lucene store's BM25, the ONNX embedder and the MaxSim reranker, each in its
 * own class loader, on a small BEIR folder written here.
 */
class EvalWithRealPluginsIT {

    private static final Path PLUGINS = Path.of(System.getProperty("corpora.plugins.dir", "target/plugins"));

    @TempDir
    static Path dataset;

    @TempDir
    static Path cache;

    @BeforeAll
    static void writeDataset() throws IOException {
        assertTrue(Files.isDirectory(PLUGINS), "plugin bundles expected in " + PLUGINS.toAbsolutePath()
                + " (built by the plugin-bundles profile; or pass -Dcorpora.plugins.dir)");
        Files.writeString(dataset.resolve("corpus.jsonl"), """
                {"_id":"volcano","title":"Volcanic eruptions","text":"Magma rises through the crust and erupts as lava, ash and gas."}
                {"_id":"penguin","title":"Emperor penguins","text":"Emperor penguins breed on Antarctic sea ice during the winter."}
                {"_id":"violin","title":"The violin","text":"The violin is a bowed string instrument of the orchestra."}
                {"_id":"bread","title":"Baking bread","text":"Yeast ferments sugars in the dough, producing gas that makes bread rise."}
                {"_id":"comet","title":"Comets","text":"A comet is an icy body whose tail points away from the Sun."}
                """);
        Files.writeString(dataset.resolve("queries.jsonl"), """
                {"_id":"q1","text":"how does lava come out of a volcano"}
                {"_id":"q2","text":"birds breeding on antarctic ice"}
                {"_id":"q3","text":"why does dough rise"}
                {"_id":"q4","text":"%s"}
                """.formatted(LONG_QUERY));
        Files.writeString(dataset.resolve("qrels.tsv"),
                "query-id\tcorpus-id\tscore\nq1\tvolcano\t1\nq2\tpenguin\t1\nq3\tbread\t1\nq4\tcomet\t1\n");
    }

    /** A pasted question far over bge-small's 510-token window (about 900 tokens), about comets. */
    static final String LONG_QUERY = "what is the icy body with a tail that points away from the sun called, ".repeat(60).strip();

    private JsonNode eval(String mode) throws IOException {
        List<JsonNode> lines = evalLines(mode);
        return lines.get(lines.size() - 1);
    }

    /** The JSON line of every report the run printed. */
    private List<JsonNode> evalLines(String mode, String... extra) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<String> args = new java.util.ArrayList<>(List.of("eval", "--dataset", dataset.toString(), "--mode", mode,
                "--plugins", PLUGINS.toString(), "--cache", cache.toString(), "--json"));
        args.addAll(List.of(extra));
        int code = new CorporaCli(CorporaCli.COMMANDS).run(args,
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        List<JsonNode> lines = new java.util.ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).strip().split("\n")) {
            if (line.startsWith("{")) {
                lines.add(new ObjectMapper().readTree(line));
            }
        }
        return lines;
    }

    @Test
    void aQueryOverTheEmbeddersWindowIsEmbeddedInWindowsNotRefused() throws IOException {
        JsonNode vector = eval("vector");
        assertEquals(4, vector.get("queries").asInt());
        assertEquals(0, vector.get("failed").asInt(), "the 900-token query is embedded in pooled windows: " + vector);
        assertEquals(1.0, vector.get("mrr@10").asDouble(), 1e-9, "and finds its document first: " + vector);
    }

    @Test
    void oneHybridRunMeasuresTheLegsAndEveryFusionOverOneIndex() throws IOException {
        List<JsonNode> lines = evalLines("hybrid", "--with-legs", "--fusion", "rrf,rrf:10:2:1,convex-minmax:0.7,convex-zscore:0.5");
        assertEquals(List.of("bm25", "vector", "hybrid", "hybrid", "hybrid", "hybrid"), lines.stream().map(l -> l.get("mode").asText()).toList());
        assertTrue(lines.get(4).get("configuration").asText().endsWith("fusion convex(minmax,alpha=0.7)"), lines.get(4).toString());
        for (JsonNode line : lines) {
            assertEquals(4, line.get("queries").asInt(), line.toString());
            assertEquals(0, line.get("failed").asInt(), line.toString());
        }
        for (JsonNode fused : lines.subList(2, lines.size())) {
            assertEquals(1.0, fused.get("recall@100").asDouble(), 1e-9, fused.toString());
        }
    }

    @Test
    void theHybridAsServedIsMeasuredBesideTheDeeperFusion() throws IOException {
        List<JsonNode> lines = evalLines("hybrid", "--served-leg-depth", "50,20");
        assertEquals(List.of("hybrid", "hybrid", "hybrid"), lines.stream().map(l -> l.get("mode").asText()).toList());
        assertTrue(lines.get(1).get("configuration").asText().endsWith("as served: legs of 50"), lines.get(1).toString());
        assertTrue(lines.get(2).get("configuration").asText().endsWith("as served: legs of 20"), lines.get(2).toString());
        // every chunk of this small corpus is in legs of 20 as in legs of 300: the same fusion ranks the same first ten
        for (JsonNode served : lines.subList(1, 3)) {
            for (String metric : List.of("ndcg@10", "mrr@10")) {
                assertEquals(lines.get(0).get(metric).asDouble(), served.get(metric).asDouble(), 0.0, metric + " of " + served);
            }
        }
        lines.forEach(line -> assertEquals(0, line.get("failed").asInt(), line.toString()));
    }

    @Test
    void storeOptionsReachTheStoreAndEveryDocumentScoreIsReported() throws IOException {
        List<JsonNode> lines = evalLines("bm25", "--store-config", "keyword.titleBoost=2,keyword.prf.chunks=3", "--doc-chunks", "1,2");
        assertEquals(2, lines.size(), lines.toString());
        for (JsonNode line : lines) {
            assertTrue(line.get("configuration").asText().startsWith("store lucene keyword.prf.chunks=3 keyword.titleBoost=2"), line.toString());
            assertEquals(0, line.get("failed").asInt(), line.toString());
        }
        assertTrue(lines.get(1).get("configuration").asText().endsWith("document = sum of best 2 chunks"), lines.get(1).toString());
    }

    @Test
    void keywordVariantsAreMeasuredAloneAndFusedWithTheSameVectorLegInOneRun() throws IOException {
        List<JsonNode> lines = evalLines("hybrid", "--with-legs", "--keyword-variants", "keyword.titleBoost=0;keyword.titleBoost=3");
        assertEquals(List.of("bm25", "bm25", "bm25", "vector", "hybrid", "hybrid", "hybrid"), lines.stream().map(l -> l.get("mode").asText()).toList());
        assertTrue(lines.get(1).get("configuration").asText().endsWith(", keyword keyword.titleBoost=0"), lines.get(1).toString());
        assertTrue(lines.get(6).get("configuration").asText().contains(", keyword keyword.titleBoost=3, fusion convex(zscore,alpha=0.6)"),
                lines.get(6).toString());
        // a variant with the main store's settings, text only, ranks exactly as the main store's keyword leg
        for (String metric : List.of("ndcg@10", "recall@100", "mrr@10")) {
            assertEquals(lines.get(0).get(metric).asDouble(), lines.get(1).get(metric).asDouble(), 0.0, metric + " of bm25");
            assertEquals(lines.get(4).get(metric).asDouble(), lines.get(5).get(metric).asDouble(), 0.0, metric + " of hybrid");
        }
        lines.forEach(line -> assertEquals(0, line.get("failed").asInt(), line.toString()));
    }

    @Test
    void bm25ThroughTheLucenePlugin() throws IOException {
        JsonNode line = eval("bm25");
        assertEquals(4, line.get("queries").asInt());
        assertTrue(line.get("mrr@10").asDouble() >= 0.66, line.toString());
    }

    @Test
    void rerankedHybridThroughTheLuceneOnnxAndMaxSimPlugins() throws IOException {
        // one run exercises every plugin: BM25 and vector legs of the Lucene store, the ONNX embedder, the MaxSim reranker
        JsonNode reranked = eval("hybrid+rerank");
        assertEquals(1.0, reranked.get("recall@100").asDouble(), 1e-9, reranked.toString());
        assertEquals(1.0, reranked.get("mrr@10").asDouble(), 1e-9, "each topic's document ranks first: " + reranked);
    }
}
