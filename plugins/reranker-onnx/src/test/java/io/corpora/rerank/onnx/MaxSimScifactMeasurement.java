package io.corpora.rerank.onnx;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.corpora.onnx.BiEncoder;
import io.corpora.onnx.BundledModel;
import io.corpora.onnx.InferenceWorkers;
import io.corpora.onnx.Truncation;
import io.corpora.spi.VectorMath;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.util.QueryBuilder;

/**
 * Measurement, not a test: does {@code maxsim} reranking beat the hybrid (BM25 + bge vector, RRF k=60) order on a
 * BEIR dataset's train split? Whole documents (title + text) are the passages; hybrid top-20 are reranked; nDCG@10
 * and MRR@10 as trec_eval computes them (binary qrels, every query with qrels counts, a query's own id is excluded).
 * The maxsim score is linear in passageWeight, so the sentence-only reranker (w=0) and the whole-passage cosine
 * (w=1, from the document vectors) give every blend exactly; the real reranker with its defaults is checked
 * against the computed (fused) blend on the first 40 queries. Reranked runs keep the hybrid order below the top 20.
 * Usage: {@code java -cp ... io.corpora.rerank.onnx.MaxSimScifactMeasurement DATASET_DIR [split] [maxQueries]}.
 */
public final class MaxSimScifactMeasurement {

    private static final int FETCH = 20;
    private static final int LEG_DEPTH = 100;

    public static void main(String[] args) throws Exception {
        Path dataset = Path.of(args[0]);
        String split = args.length > 1 ? args[1] : "train";
        int maxQueries = args.length > 2 ? Integer.parseInt(args[2]) : Integer.MAX_VALUE;
        Logger.getLogger("").setLevel(Level.SEVERE);
        Map<String, String> corpus = readCorpus(dataset.resolve("corpus.jsonl"));
        Path splitDir = "test".equals(split) ? dataset : dataset.resolve(split);
        Map<String, Map<String, Integer>> qrels = readQrels(splitDir.resolve("qrels.tsv"));
        Map<String, String> queries = new LinkedHashMap<>();
        readJsonl(splitDir.resolve("queries.jsonl")).forEach(q -> {
            if (qrels.containsKey(q.get("_id")) && queries.size() < maxQueries) {
                queries.put(q.get("_id"), q.get("text"));
            }
        });
        System.out.printf("%s/%s: %d documents, %d queries with qrels%n", dataset.getFileName(), split, corpus.size(), queries.size());

        List<String> ids = new ArrayList<>(corpus.keySet());
        long t0 = System.nanoTime();
        float[][] docVectors = documentVectors(ids, corpus, Path.of(System.getProperty("java.io.tmpdir"), "maxsim-scifact-docs.bin"));
        System.out.printf("document vectors: %.0f s%n", (System.nanoTime() - t0) / 1e9);

        Map<String, List<String>> hybrid = new LinkedHashMap<>();
        Map<String, List<String>> bm25Runs = new LinkedHashMap<>();
        Map<String, List<String>> vectorRuns = new LinkedHashMap<>();
        Map<String, float[]> queryVectorOf = new HashMap<>();
        BundledModel model = BundledModel.BGE_SMALL_EN_V15_Q;
        try (ByteBuffersDirectory directory = new ByteBuffersDirectory();
             BiEncoder encoder = BiEncoder.load(model.spec(), model.modelBytes(), model.tokenizerBytes(), 1, Logger.getLogger("m"));
             InferenceWorkers workers = new InferenceWorkers(2, "measure")) {
            EnglishAnalyzer analyzer = new EnglishAnalyzer();
            IndexWriterConfig config = new IndexWriterConfig(analyzer).setSimilarity(new BM25Similarity(1.2f, 0.75f));
            try (IndexWriter writer = new IndexWriter(directory, config)) {
                for (String id : ids) {
                    Document doc = new Document();
                    doc.add(new StringField("id", id, Field.Store.YES));
                    doc.add(new TextField("body", corpus.get(id), Field.Store.NO));
                    writer.addDocument(doc);
                }
            }
            List<String> queryIds = new ArrayList<>(queries.keySet());
            List<float[]> queryVectors = workers.map(queryIds, id -> encoder.embedQuery(queries.get(id), Truncation.WARN));
            for (int qi = 0; qi < queryIds.size(); qi++) {
                queryVectorOf.put(queryIds.get(qi), queryVectors.get(qi));
            }
            try (DirectoryReader reader = DirectoryReader.open(directory)) {
                IndexSearcher searcher = new IndexSearcher(reader);
                searcher.setSimilarity(new BM25Similarity(1.2f, 0.75f));
                QueryBuilder builder = new QueryBuilder(analyzer);
                for (int qi = 0; qi < queryIds.size(); qi++) {
                    String qid = queryIds.get(qi);
                    Query parsed = builder.createBooleanQuery("body", queries.get(qid));
                    List<String> bm25 = new ArrayList<>();
                    if (parsed != null) {
                        for (ScoreDoc hit : searcher.search(parsed, LEG_DEPTH + 1).scoreDocs) {
                            String id = searcher.storedFields().document(hit.doc).get("id");
                            if (!id.equals(qid)) {
                                bm25.add(id);
                            }
                        }
                    }
                    List<String> vector = exactTop(queryVectors.get(qi), docVectors, ids, qid);
                    bm25Runs.put(qid, bm25);
                    vectorRuns.put(qid, vector);
                    hybrid.put(qid, rrf(List.of(bm25, vector), 60));
                }
            }
        }
        report("bm25", bm25Runs, qrels);
        report("vector", vectorRuns, qrels);
        report("hybrid (RRF k=60)", hybrid, qrels);

        PluginContext context = PluginContext.of(Files.createTempDirectory("maxsim"), "measure");
        MaxSimRerankerProvider provider = new MaxSimRerankerProvider();
        Map<String, double[]> sentenceScores = new HashMap<>();
        Map<String, double[]> passageScores = new HashMap<>();
        Map<String, Integer> row = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            row.put(ids.get(i), i);
        }
        long t1 = System.nanoTime();
        try (Reranker sentenceOnly = provider.create(context, PluginConfig.validate("maxsim", provider.configOptions(),
                Map.of("passageWeight", "0", "fuseWithInputOrder", "false", "cacheEntries", "200000")))) {
            for (String qid : queries.keySet()) {
                List<String> candidates = top(hybrid.get(qid), FETCH);
                List<String> texts = candidates.stream().map(corpus::get).toList();
                sentenceScores.put(qid, sentenceOnly.score(queries.get(qid), texts));
                // passageWeight=1 is the cosine of query and whole passage: the document vectors already computed.
                float[] q = queryVectorOf.get(qid);
                passageScores.put(qid, candidates.stream().mapToDouble(id -> VectorMath.dotProduct(q, docVectors[row.get(id)])).toArray());
            }
        }
        System.out.printf("sentence MaxSim over %d queries x %d candidates (cold cache): %.0f s%n", queries.size(), FETCH,
                (System.nanoTime() - t1) / 1e9);
        for (double w : new double[] {0, 0.25, 0.5, 0.75, 1}) {
            Map<String, List<String>> run = new LinkedHashMap<>();
            Map<String, List<String>> fused = new LinkedHashMap<>();
            for (String qid : queries.keySet()) {
                List<String> candidates = top(hybrid.get(qid), FETCH);
                double[] scores = blend(sentenceScores.get(qid), passageScores.get(qid), w);
                List<String> reranked = byScore(candidates, scores);
                List<String> tail = hybrid.get(qid).subList(candidates.size(), hybrid.get(qid).size());
                run.put(qid, concat(reranked, tail));
                fused.put(qid, concat(rrf(List.of(candidates, reranked), 60), tail));
            }
            report(String.format("hybrid top-%d + maxsim passageWeight=%.2f", FETCH, w), run, qrels);
            report(String.format("  … RRF(hybrid order, maxsim w=%.2f)", w), fused, qrels);
        }
        // Check that the real reranker with its defaults gives exactly the fused blend computed above (first 40 queries).
        double worst = 0;
        try (Reranker defaults = provider.create(context, PluginConfig.validate("maxsim", provider.configOptions(), Map.of()))) {
            for (String qid : queries.keySet().stream().limit(40).toList()) {
                List<String> candidates = top(hybrid.get(qid), FETCH);
                double[] real = defaults.score(queries.get(qid), candidates.stream().map(corpus::get).toList());
                double[] expected = blend(sentenceScores.get(qid), passageScores.get(qid), MaxSimRerankerProvider.DEFAULT_PASSAGE_WEIGHT);
                if (MaxSimRerankerProvider.DEFAULT_FUSE_WITH_INPUT_ORDER) {
                    expected = InputOrderFusion.fuse(expected);
                }
                for (int i = 0; i < real.length; i++) {
                    worst = Math.max(worst, Math.abs(real[i] - expected[i]));
                }
            }
        }
        System.out.printf("real reranker (defaults) vs computed blend, 40 queries: max |difference| %.2e%n", worst);
    }

    private static float[][] documentVectors(List<String> ids, Map<String, String> corpus, Path cache) throws IOException {
        BundledModel model = BundledModel.BGE_SMALL_EN_V15_Q;
        String key = model.modelBytes().sha256() + ids.size() + ids.get(0) + ids.get(ids.size() - 1);
        if (Files.exists(cache)) {
            try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(cache)))) {
                if (in.readUTF().equals(key)) {
                    float[][] vectors = new float[ids.size()][384];
                    for (float[] v : vectors) {
                        for (int i = 0; i < v.length; i++) {
                            v[i] = in.readFloat();
                        }
                    }
                    return vectors;
                }
            }
        }
        try (BiEncoder encoder = BiEncoder.load(model.spec(), model.modelBytes(), model.tokenizerBytes(), 1, Logger.getLogger("m"));
             InferenceWorkers workers = new InferenceWorkers(2, "measure-docs")) {
            float[][] vectors = workers.map(ids, id -> encoder.embed(corpus.get(id), Truncation.WARN)).toArray(float[][]::new);
            try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(Files.newOutputStream(cache)))) {
                out.writeUTF(key);
                for (float[] v : vectors) {
                    for (float x : v) {
                        out.writeFloat(x);
                    }
                }
            }
            return vectors;
        }
    }

    private static List<String> exactTop(float[] query, float[][] docs, List<String> ids, String exclude) {
        Integer[] order = new Integer[docs.length];
        double[] scores = new double[docs.length];
        for (int i = 0; i < docs.length; i++) {
            order[i] = i;
            scores[i] = VectorMath.dotProduct(query, docs[i]);
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparing(ids::get));
        List<String> out = new ArrayList<>();
        for (int i = 0; i < order.length && out.size() < LEG_DEPTH; i++) {
            if (!ids.get(order[i]).equals(exclude)) {
                out.add(ids.get(order[i]));
            }
        }
        return out;
    }

    static List<String> rrf(List<List<String>> runs, int k) {
        Map<String, Double> fused = new HashMap<>();
        for (List<String> run : runs) {
            for (int rank = 0; rank < run.size(); rank++) {
                fused.merge(run.get(rank), 1.0 / (k + rank + 1), Double::sum);
            }
        }
        return fused.entrySet().stream()
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .map(Map.Entry::getKey).toList();
    }

    private static double[] blend(double[] sentence, double[] passage, double w) {
        double[] out = new double[sentence.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = (1 - w) * sentence[i] + w * passage[i];
        }
        return out;
    }

    private static List<String> byScore(List<String> candidates, double[] scores) {
        Integer[] order = new Integer[candidates.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparing(candidates::get));
        return Arrays.stream(order).map(candidates::get).toList();
    }

    /** A reranked head followed by the base ranking's tail (deeper ranks keep the base order). */
    private static List<String> concat(List<String> head, List<String> tail) {
        List<String> out = new ArrayList<>(head);
        out.addAll(tail);
        return out;
    }

    private static List<String> top(List<String> run, int n) {
        return run.subList(0, Math.min(n, run.size()));
    }

    private static void report(String name, Map<String, List<String>> runs, Map<String, Map<String, Integer>> qrels) {
        double ndcg = 0;
        double mrr = 0;
        double recall100 = 0;
        for (Map.Entry<String, List<String>> entry : runs.entrySet()) {
            Map<String, Integer> relevant = qrels.get(entry.getKey());
            List<String> run = entry.getValue();
            double dcg = 0;
            for (int i = 0; i < Math.min(10, run.size()); i++) {
                int gain = relevant.getOrDefault(run.get(i), 0);
                dcg += (Math.pow(2, gain) - 1) / (Math.log(i + 2) / Math.log(2));
            }
            List<Integer> ideal = relevant.values().stream().sorted(Comparator.reverseOrder()).toList();
            double idcg = 0;
            for (int i = 0; i < Math.min(10, ideal.size()); i++) {
                idcg += (Math.pow(2, ideal.get(i)) - 1) / (Math.log(i + 2) / Math.log(2));
            }
            ndcg += idcg == 0 ? 0 : dcg / idcg;
            for (int i = 0; i < Math.min(10, run.size()); i++) {
                if (relevant.getOrDefault(run.get(i), 0) > 0) {
                    mrr += 1.0 / (i + 1);
                    break;
                }
            }
            long found = run.stream().limit(100).filter(id -> relevant.getOrDefault(id, 0) > 0).count();
            long total = relevant.values().stream().filter(g -> g > 0).count();
            recall100 += total == 0 ? 0 : (double) found / total;
        }
        int n = runs.size();
        System.out.printf("%-52s nDCG@10 %.4f  MRR@10 %.4f  R@100 %.4f%n", name, ndcg / n, mrr / n, recall100 / n);
    }

    private static Map<String, String> readCorpus(Path file) throws IOException {
        Map<String, String> corpus = new LinkedHashMap<>();
        for (Map<String, String> row : readJsonl(file)) {
            String title = row.getOrDefault("title", "");
            String text = row.getOrDefault("text", "");
            corpus.put(row.get("_id"), title.isBlank() ? text : title + "\n" + text);
        }
        return corpus;
    }

    private static Map<String, Map<String, Integer>> readQrels(Path file) throws IOException {
        Map<String, Map<String, Integer>> qrels = new HashMap<>();
        List<String> lines = Files.readAllLines(file);
        for (String line : lines.subList(1, lines.size())) {
            String[] parts = line.split("\t");
            if (parts.length >= 3) {
                qrels.computeIfAbsent(parts[0], q -> new HashMap<>()).put(parts[1], Integer.parseInt(parts[2].trim()));
            }
        }
        return qrels;
    }

    /** Top-level string fields of each JSON line. */
    private static List<Map<String, String>> readJsonl(Path file) throws IOException {
        JsonFactory factory = new JsonFactory();
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            Map<String, String> row = new HashMap<>();
            try (JsonParser parser = factory.createParser(line)) {
                parser.nextToken();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    JsonToken value = parser.nextToken();
                    if (value.isStructStart()) {
                        parser.skipChildren();
                    } else if (value != JsonToken.VALUE_NULL) {
                        row.put(field, parser.getText());
                    }
                }
            }
            rows.add(row);
        }
        return rows;
    }
}
