package io.corpora.store.lucene;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The parsed, range-checked configuration of one Lucene store.
 *
 * @param directory            where the namespace indexes live
 * @param metric               vector similarity of every vector field
 * @param hnswM                HNSW max connections per node (Lucene's {@code M})
 * @param hnswBeamWidth        HNSW candidate-list size while building the graph
 * @param quantization         {@code none}, {@code int8} (7-bit scalar) or {@code int4}
 * @param numCandidatesFactor  HNSW search breadth as a multiple of topK
 * @param minCandidates        lower bound of the HNSW search breadth
 * @param exactSearchThreshold when at most this many chunks pass the filter, search them exhaustively
 * @param bm25K1               BM25 term-frequency saturation
 * @param bm25B                BM25 length normalisation
 * @param analyzer             text analysis language of the keyword field
 * @param commitInterval       zero: commit inside every write; positive: commit in the background at this interval
 * @param ramBufferMb          indexing buffer per namespace before a segment is flushed
 */
public record LuceneStoreSettings(Path directory, VectorSimilarity metric, int hnswM, int hnswBeamWidth, String quantization,
                                  int numCandidatesFactor, int minCandidates, int exactSearchThreshold, float bm25K1, float bm25B,
                                  String analyzer, Duration commitInterval, double ramBufferMb) {

    static final String DIRECTORY = "directory";
    static final String METRIC = "metric";
    static final String HNSW_M = "hnsw.m";
    static final String HNSW_BEAM_WIDTH = "hnsw.beamWidth";
    static final String QUANTIZATION = "quantization";
    static final String NUM_CANDIDATES_FACTOR = "numCandidatesFactor";
    static final String MIN_CANDIDATES = "minCandidates";
    static final String EXACT_SEARCH_THRESHOLD = "exactSearchThreshold";
    static final String BM25_K1 = "bm25.k1";
    static final String BM25_B = "bm25.b";
    static final String ANALYZER = "analyzer";
    static final String COMMIT_INTERVAL = "commitInterval";
    static final String RAM_BUFFER_MB = "ramBufferMb";

    /** Every option the provider declares, with defaults and one-line meanings. */
    static List<ConfigOption> options() {
        return List.of(
                ConfigOption.builder(DIRECTORY, ConfigType.PATH)
                        .description("Index directory; one sub-directory per tenant and partition. Default: the plugin's data directory.").build(),
                ConfigOption.builder(METRIC, ConfigType.ENUM).allowedValues("cosine", "l2", "inner").defaultValue("cosine")
                        .description("Vector similarity; scores follow io.corpora.spi.VectorSimilarity. Fixed once an index holds vectors.").build(),
                ConfigOption.builder(HNSW_M, ConfigType.INT).defaultValue(16)
                        .description("HNSW max connections per node (2..512); higher: better recall, bigger and slower index.").build(),
                ConfigOption.builder(HNSW_BEAM_WIDTH, ConfigType.INT).defaultValue(100)
                        .description("HNSW build-time candidate list (2..3200); higher: better graph, slower indexing.").build(),
                ConfigOption.builder(QUANTIZATION, ConfigType.ENUM).allowedValues("none", "int8", "int4").defaultValue("none")
                        .description("Scalar quantisation of the HNSW graph's vectors; raw vectors are kept and every hit is rescored with them.").build(),
                ConfigOption.builder(NUM_CANDIDATES_FACTOR, ConfigType.INT).defaultValue(10)
                        .description("HNSW search breadth = max(topK x this, minCandidates) (1..100).").build(),
                ConfigOption.builder(MIN_CANDIDATES, ConfigType.INT).defaultValue(100)
                        .description("Lower bound of the HNSW search breadth (1..10000).").build(),
                ConfigOption.builder(EXACT_SEARCH_THRESHOLD, ConfigType.INT).defaultValue(5000)
                        .description("When at most this many chunks pass the filter, score them all exactly (full recall); 0 disables.").build(),
                ConfigOption.builder(BM25_K1, ConfigType.DOUBLE).defaultValue(1.2)
                        .description("BM25 term-frequency saturation (>= 0).").build(),
                ConfigOption.builder(BM25_B, ConfigType.DOUBLE).defaultValue(0.75)
                        .description("BM25 document-length normalisation (0..1).").build(),
                ConfigOption.builder(ANALYZER, ConfigType.ENUM).allowedValues(TextAnalyzers.NAMES.toArray(String[]::new)).defaultValue("english")
                        .description("Lucene analyzer of the keyword field (stemming and stop words). Fixed once an index holds text.").build(),
                ConfigOption.builder(COMMIT_INTERVAL, ConfigType.DURATION).defaultValue("0s")
                        .description("0s: every write is committed (durable) before it returns. Positive: writes are visible at once but "
                                + "committed in the background at this interval, so a crash loses at most that window (bulk loads only).").build(),
                ConfigOption.builder(RAM_BUFFER_MB, ConfigType.DOUBLE).defaultValue(64)
                        .description("Indexing buffer per open namespace before Lucene flushes a segment (1..2048).").build());
    }

    static LuceneStoreSettings from(PluginContext context, PluginConfig config) {
        List<String> problems = new ArrayList<>();
        int m = config.getInt(HNSW_M);
        int beamWidth = config.getInt(HNSW_BEAM_WIDTH);
        int factor = config.getInt(NUM_CANDIDATES_FACTOR);
        int minCandidates = config.getInt(MIN_CANDIDATES);
        int exact = config.getInt(EXACT_SEARCH_THRESHOLD);
        double k1 = config.getDouble(BM25_K1);
        double b = config.getDouble(BM25_B);
        Duration commitInterval = config.getDuration(COMMIT_INTERVAL);
        double ramBuffer = config.getDouble(RAM_BUFFER_MB);
        check(problems, m >= 2 && m <= 512, HNSW_M + " must be 2..512, got " + m);
        check(problems, beamWidth >= 2 && beamWidth <= 3200, HNSW_BEAM_WIDTH + " must be 2..3200, got " + beamWidth);
        check(problems, factor >= 1 && factor <= 100, NUM_CANDIDATES_FACTOR + " must be 1..100, got " + factor);
        check(problems, minCandidates >= 1 && minCandidates <= 10_000, MIN_CANDIDATES + " must be 1..10000, got " + minCandidates);
        check(problems, exact >= 0, EXACT_SEARCH_THRESHOLD + " must be >= 0, got " + exact);
        check(problems, k1 >= 0, BM25_K1 + " must be >= 0, got " + k1);
        check(problems, b >= 0 && b <= 1, BM25_B + " must be 0..1, got " + b);
        check(problems, !commitInterval.isNegative(), COMMIT_INTERVAL + " must not be negative, got " + commitInterval);
        check(problems, ramBuffer >= 1 && ramBuffer <= 2048, RAM_BUFFER_MB + " must be 1..2048, got " + ramBuffer);
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(config.provider(), problems);
        }
        Path directory = config.getPath(DIRECTORY).orElseGet(context::dataDirectory);
        return new LuceneStoreSettings(directory, VectorSimilarity.parse(config.requireString(METRIC)), m, beamWidth,
                config.requireString(QUANTIZATION), factor, minCandidates, exact, (float) k1, (float) b,
                config.requireString(ANALYZER), commitInterval, ramBuffer);
    }

    private static void check(List<String> problems, boolean ok, String problem) {
        if (!ok) {
            problems.add(problem);
        }
    }

    /** HNSW search breadth for a topK. */
    int numCandidates(int topK) {
        return Math.max(minCandidates, (int) Math.min(Integer.MAX_VALUE / 2, (long) topK * numCandidatesFactor));
    }

    boolean commitsOnEveryWrite() {
        return commitInterval.isZero();
    }
}
