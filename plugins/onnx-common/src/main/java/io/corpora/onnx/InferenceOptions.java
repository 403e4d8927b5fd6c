package io.corpora.onnx;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import java.util.List;

/**
 * The concurrency options every ONNX provider declares: how many model runs at once ({@value #WORKERS}) and how many
 * ONNX Runtime threads inside one run ({@value #INTRA_OP_THREADS}). Two workers of one thread each were fastest on 2 cores.
 */
public record InferenceOptions(int workers, int intraOpThreads) {

    public static final String WORKERS = "workers";
    public static final String INTRA_OP_THREADS = "intraOpThreads";
    private static final int MAX = 64;

    /** The two option declarations, for a provider's {@code configOptions()}. */
    public static List<ConfigOption> declarations() {
        return List.of(
                ConfigOption.builder(WORKERS, ConfigType.INT).defaultValue(2)
                        .description("Model runs at once (a fixed thread pool); 2 with 1 intra-op thread each was fastest on 2 cores")
                        .build(),
                ConfigOption.builder(INTRA_OP_THREADS, ConfigType.INT).defaultValue(1)
                        .description("ONNX Runtime threads inside one model run")
                        .build());
    }

    /** Reads both options, adding a problem for each value outside 1..64. */
    public static InferenceOptions read(PluginConfig config, List<String> problems) {
        int workers = config.getInt(WORKERS);
        int intraOpThreads = config.getInt(INTRA_OP_THREADS);
        requireRange(WORKERS, workers, problems);
        requireRange(INTRA_OP_THREADS, intraOpThreads, problems);
        return new InferenceOptions(workers, intraOpThreads);
    }

    private static void requireRange(String option, int value, List<String> problems) {
        if (value < 1 || value > MAX) {
            problems.add("option '" + option + "' must be 1.." + MAX + ", got " + value);
        }
    }
}
