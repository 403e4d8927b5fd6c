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
                """);
        Files.writeString(dataset.resolve("qrels.tsv"), "query-id\tcorpus-id\tscore\nq1\tvolcano\t1\nq2\tpenguin\t1\nq3\tbread\t1\n");
    }

    private JsonNode eval(String mode) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new CorporaCli(CorporaCli.COMMANDS).run(List.of("eval", "--dataset", dataset.toString(), "--mode", mode,
                        "--plugins", PLUGINS.toString(), "--cache", cache.toString(), "--json"),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        String[] lines = out.toString(StandardCharsets.UTF_8).strip().split("\n");
        return new ObjectMapper().readTree(lines[lines.length - 1]);
    }

    @Test
    void bm25ThroughTheLucenePlugin() throws IOException {
        JsonNode line = eval("bm25");
        assertEquals(3, line.get("queries").asInt());
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
