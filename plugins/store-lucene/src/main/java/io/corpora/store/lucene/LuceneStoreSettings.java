package io.corpora.store.lucene;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The parsed, range-checked configuration of one Lucene store.
 *
 * @param directory            where the namespace indexes live
 * @param metric               vector similarity of every vector field
 * @param hnswM                HNSW max connections per node (Lucene's {@code M})
 * @param hnswEfConstruction   HNSW candidate-list size while building the graph (Lucene's beam width)
 * @param quantization         {@code none}, {@code int8} (7-bit scalar) or {@code int4}
 * @param numCandidatesFactor  HNSW search breadth as a multiple of topK
 * @param minCandidates        lower bound of the HNSW search breadth
 * @param exactSearchThreshold when at most this many chunks pass the filter, search them exhaustively
 * @param bm25K1               BM25 term-frequency saturation
 * @param bm25B                BM25 length normalisation
 * @param analyzer             text analysis language of the keyword field
 * @param commitInterval       zero: every write returns once the translog fsync covers it; positive: the log is fsynced at this interval
 * @param ramBufferMb          indexing buffer per namespace before a segment is flushed
 * @param mergeFloorSegmentMb  segments below this size count as this size when merges are chosen
 * @param mergeIdleSegments    once a namespace's writes pause, it is merged down to at most this many segments; 0: never
 * @param mergeIdleAfter       how long a namespace must go without writes before that merge
 * @param mergeIdleMaxChunks   namespaces holding more live chunks are left to the tiered policy
 * @param flushInterval        the longest a namespace's translog grows before a background Lucene commit
 * @param flushBytes           the translog size that triggers a background Lucene commit sooner
 * @param storedBlockKb        size of the compressed blocks chunk texts and metadata are stored in
 * @param keyword              title boost and pseudo-relevance feedback of the keyword leg (both off by default)
 */
public record LuceneStoreSettings(Path directory, VectorSimilarity metric, int hnswM, int hnswEfConstruction, String quantization,
                                  int numCandidatesFactor, int minCandidates, int exactSearchThreshold, float bm25K1, float bm25B,
                                  String analyzer, Duration commitInterval, double ramBufferMb, double mergeFloorSegmentMb,
                                  int mergeIdleSegments, Duration mergeIdleAfter, int mergeIdleMaxChunks, Duration flushInterval,
                                  long flushBytes, int storedBlockKb, KeywordOptions keyword) {

    static final String DIRECTORY = "directory";
    static final String METRIC = "metric";
    static final String HNSW_M = "hnsw.m";
    static final String HNSW_EF_CONSTRUCTION = "hnsw.efConstruction";
    static final String QUANTIZATION = "quantization";
    static final String NUM_CANDIDATES_FACTOR = "numCandidatesFactor";
    static final String MIN_CANDIDATES = "minCandidates";
    static final String EXACT_SEARCH_THRESHOLD = "exactSearchThreshold";
    static final String BM25_K1 = "bm25.k1";
    static final String BM25_B = "bm25.b";
    static final String ANALYZER = "analyzer";
    static final String COMMIT_INTERVAL = "commitInterval";
    static final String RAM_BUFFER_MB = "ramBufferMb";
    static final String MERGE_FLOOR_SEGMENT_MB = "merge.floorSegmentMb";
    static final String MERGE_IDLE_SEGMENTS = "merge.idleSegments";
    static final String MERGE_IDLE_AFTER = "merge.idleAfter";
    static final String MERGE_IDLE_MAX_CHUNKS = "merge.idleMaxChunks";
    static final String FLUSH_INTERVAL = "translog.flushInterval";
    static final String FLUSH_BYTES = "translog.flushBytes";
    static final String STORED_BLOCK_KB = "storedFields.blockKb";
    static final String KEYWORD_TITLE_BOOST = "keyword.titleBoost";
    static final String KEYWORD_PRF_CHUNKS = "keyword.prf.chunks";
    static final String KEYWORD_PRF_TERMS = "keyword.prf.terms";
    static final String KEYWORD_PRF_QUERY_WEIGHT = "keyword.prf.queryWeight";

    /** Every option the provider declares, with defaults and one-line meanings. */
    static List<ConfigOption> options() {
        return List.of(
                ConfigOption.builder(DIRECTORY, ConfigType.PATH)
                        .description("Index directory; one sub-directory per tenant and partition. Default: the plugin's data directory.").build(),
                ConfigOption.builder(METRIC, ConfigType.ENUM).allowedValues("cosine", "l2", "inner").defaultValue("cosine")
                        .description("Vector similarity; scores follow io.corpora.spi.VectorSimilarity. Fixed once an index holds vectors.").build(),
                ConfigOption.builder(HNSW_M, ConfigType.INT).defaultValue(16).minimum(2).maximum(512).aliases("hnswM")
                        .description("HNSW max connections per node; higher: better recall, bigger and slower index.").build(),
                ConfigOption.builder(HNSW_EF_CONSTRUCTION, ConfigType.INT).defaultValue(100).minimum(2).maximum(3200)
                        .aliases("hnsw.beamWidth", "hnswEfConstruction")
                        .description("HNSW build-time candidate list (Lucene's beam width); higher: better graph, slower indexing.").build(),
                ConfigOption.builder(QUANTIZATION, ConfigType.ENUM).allowedValues("none", "int8", "int4").defaultValue("none")
                        .description("Scalar quantisation of the HNSW graph's vectors; raw vectors are kept and every hit is rescored with them.").build(),
                ConfigOption.builder(NUM_CANDIDATES_FACTOR, ConfigType.INT).defaultValue(4).minimum(1).maximum(100)
                        .description("HNSW search breadth = max(topK x this, minCandidates).").build(),
                ConfigOption.builder(MIN_CANDIDATES, ConfigType.INT).defaultValue(100).minimum(1).maximum(10_000)
                        .description("Lower bound of the HNSW search breadth.").build(),
                ConfigOption.builder(EXACT_SEARCH_THRESHOLD, ConfigType.INT).defaultValue(5000).minimum(0)
                        .description("When at most this many chunks pass the filter, score them all exactly (full recall); 0 disables.").build(),
                ConfigOption.builder(BM25_K1, ConfigType.DOUBLE).defaultValue(1.2).minimum(0)
                        .description("BM25 term-frequency saturation.").build(),
                ConfigOption.builder(BM25_B, ConfigType.DOUBLE).defaultValue(0.75).minimum(0).maximum(1)
                        .description("BM25 document-length normalisation.").build(),
                ConfigOption.builder(ANALYZER, ConfigType.ENUM).allowedValues(TextAnalyzers.NAMES.toArray(String[]::new)).defaultValue("english")
                        .description("Lucene analyzer of the keyword field (stemming and stop words). Fixed once an index holds text.").build(),
                ConfigOption.builder(COMMIT_INTERVAL, ConfigType.DURATION).defaultValue("0s").minimum("0s")
                        .description("0s: every write is durable (its translog record fsynced; concurrent writers share one fsync) before it "
                                + "returns. Positive: writes return once logged (a process crash loses none) and the log is fsynced at this "
                                + "interval, so a power loss or OS crash loses at most that window (bulk loads only).").build(),
                ConfigOption.builder(RAM_BUFFER_MB, ConfigType.DOUBLE).defaultValue(64).minimum(1).maximum(2048)
                        .description("Indexing buffer per open namespace before Lucene flushes a segment.").build(),
                ConfigOption.builder(MERGE_FLOOR_SEGMENT_MB, ConfigType.DOUBLE).defaultValue(16).minimum(0.1).maximum(1024)
                        .description("Segments smaller than this are merged as if they were this size, so the small segments "
                                + "background commits flush are merged sooner and a kNN search visits fewer graphs (Lucene 10.2's "
                                + "default; 9.x's is 2).").build(),
                ConfigOption.builder(MERGE_IDLE_SEGMENTS, ConfigType.INT).defaultValue(1).minimum(0).maximum(1000)
                        .description("Once a namespace has gone merge.idleAfter without writes, merge it down to this many segments "
                                + "(a kNN search walks one HNSW graph per segment; an ingest leaves up to ten per tier), when at least "
                                + "a tenth of its documents lie outside its largest ones. Once per pause in its writes; 0: never.").build(),
                ConfigOption.builder(MERGE_IDLE_AFTER, ConfigType.DURATION).defaultValue("60s").minimum("1s").maximum("24h")
                        .description("How long a namespace must go without writes before merge.idleSegments applies.").build(),
                ConfigOption.builder(MERGE_IDLE_MAX_CHUNKS, ConfigType.INT).defaultValue(200_000).minimum(0)
                        .description("Namespaces holding more live chunks are not merged when idle: the merge rewrites every chunk "
                                + "(about 45 s of one core per 100,000 here) and closing the namespace waits for it.").build(),
                ConfigOption.builder(FLUSH_INTERVAL, ConfigType.DURATION).defaultValue("5s").minimum("10ms").maximum("1h")
                        .description("A namespace's writes are Lucene-committed in the background at most this long after the last commit "
                                + "(durable already through the translog; the commit bounds how much of the log a restart replays).").build(),
                ConfigOption.builder(FLUSH_BYTES, ConfigType.LONG).defaultValue(16L << 20).minimum(64L << 10).maximum(1L << 30)
                        .description("Commit sooner once a namespace's translog holds this many bytes (bounds replay time and log size).").build(),
                ConfigOption.builder(STORED_BLOCK_KB, ConfigType.INT).defaultValue(16).minimum(4).maximum(80)
                        .description("Size of the compressed blocks chunk texts and metadata are stored in. Loading a hit decompresses "
                                + "its block up to it, and a hybrid retrieval loads the hits of both legs: on SciFact both legs took a "
                                + "third less time in blocks of 16 than in Lucene's default 80, for 6 % more bytes on disk. Applies to "
                                + "segments written from then on; merges rewrite older ones.").build(),
                ConfigOption.builder(KEYWORD_TITLE_BOOST, ConfigType.DOUBLE).defaultValue(0).minimum(0).maximum(10)
                        .description("Keyword score = BM25 of the index text + this x BM25 of a title field (the chunk's title and "
                                + "heading path). 0: off, no title field is written. Chunks written while it was 0 have none: rebuild the "
                                + "index after turning it on.").build(),
                ConfigOption.builder(KEYWORD_PRF_CHUNKS, ConfigType.INT).defaultValue(0).minimum(0).maximum(50)
                        .description("Pseudo-relevance feedback (RM3): expand the keyword query with the strongest terms of its "
                                + "first N hits, then search again. 0: off.").build(),
                ConfigOption.builder(KEYWORD_PRF_TERMS, ConfigType.INT).defaultValue(10).minimum(1).maximum(100)
                        .description("Feedback: expansion terms kept, and terms taken from each feedback hit.").build(),
                ConfigOption.builder(KEYWORD_PRF_QUERY_WEIGHT, ConfigType.DOUBLE).defaultValue(0.5).minimum(0).maximum(1)
                        .description("Feedback: the original query's share of the expanded query; the expansion terms share the rest.")
                        .build());
    }

    /** Reads the options; every bound is declared in {@link #options()}, so the server has checked them already. */
    static LuceneStoreSettings from(PluginContext context, PluginConfig config) {
        Path directory = config.getPath(DIRECTORY).orElseGet(context::dataDirectory);
        return new LuceneStoreSettings(directory, VectorSimilarity.parse(config.requireString(METRIC)), config.getInt(HNSW_M),
                config.getInt(HNSW_EF_CONSTRUCTION), config.requireString(QUANTIZATION), config.getInt(NUM_CANDIDATES_FACTOR),
                config.getInt(MIN_CANDIDATES), config.getInt(EXACT_SEARCH_THRESHOLD), (float) config.getDouble(BM25_K1),
                (float) config.getDouble(BM25_B), config.requireString(ANALYZER), config.getDuration(COMMIT_INTERVAL),
                config.getDouble(RAM_BUFFER_MB), config.getDouble(MERGE_FLOOR_SEGMENT_MB), config.getInt(MERGE_IDLE_SEGMENTS),
                config.getDuration(MERGE_IDLE_AFTER), config.getInt(MERGE_IDLE_MAX_CHUNKS), config.getDuration(FLUSH_INTERVAL),
                config.getLong(FLUSH_BYTES), config.getInt(STORED_BLOCK_KB),
                new KeywordOptions((float) config.getDouble(KEYWORD_TITLE_BOOST), config.getInt(KEYWORD_PRF_CHUNKS),
                        config.getInt(KEYWORD_PRF_TERMS), (float) config.getDouble(KEYWORD_PRF_QUERY_WEIGHT)));
    }

    /** HNSW search breadth for a topK. */
    int numCandidates(int topK) {
        return Math.max(minCandidates, (int) Math.min(Integer.MAX_VALUE / 2, (long) topK * numCandidatesFactor));
    }

    /** Whether every write waits for the translog fsync that covers it (else the log is fsynced every commitInterval). */
    boolean syncsEveryWrite() {
        return commitInterval.isZero();
    }
}
