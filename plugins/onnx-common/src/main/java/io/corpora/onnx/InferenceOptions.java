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
                ConfigOption.builder(WORKERS, ConfigType.INT).defaultValue(2).minimum(1).maximum(MAX)
                        .description("Model runs at once (a fixed thread pool); 2 with 1 intra-op thread each was fastest on 2 cores")
                        .build(),
                ConfigOption.builder(INTRA_OP_THREADS, ConfigType.INT).defaultValue(1).minimum(1).maximum(MAX)
                        .description("ONNX Runtime threads inside one model run")
                        .build());
    }

    /** Reads both options (their 1..64 bounds are declared, so the server has checked them already). */
    public static InferenceOptions read(PluginConfig config) {
        return new InferenceOptions(config.getInt(WORKERS), config.getInt(INTRA_OP_THREADS));
    }
}
