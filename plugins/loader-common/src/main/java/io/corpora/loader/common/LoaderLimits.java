package io.corpora.loader.common;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.LoadRequest;
import java.time.Duration;
import java.util.List;

/**
 * The two limits every loader declares and enforces: the largest input it accepts ({@value #MAX_BYTES}) and the
 * longest it may work on one document ({@value #TIMEOUT}). Loaders add their own (pages, records) next to these.
 */
public record LoaderLimits(long maxBytes, Duration timeout) {

    public static final String MAX_BYTES = "maxBytes";
    public static final String TIMEOUT = "timeout";

    public LoaderLimits {
        if (maxBytes <= 0) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** The two option declarations, with this loader's defaults. */
    public static List<ConfigOption> options(long defaultMaxBytes, String defaultTimeout) {
        return List.of(
                ConfigOption.builder(MAX_BYTES, ConfigType.LONG).defaultValue(defaultMaxBytes).minimum(1)
                        .description("Largest document accepted, in bytes; larger ones fail with TOO_LARGE before parsing.")
                        .build(),
                ConfigOption.builder(TIMEOUT, ConfigType.DURATION).defaultValue(defaultTimeout).minimum("1ms")
                        .description("Longest time spent loading one document; slower ones fail with TIMEOUT.")
                        .build());
    }

    /** Reads the two options (their lower bounds are declared, so the server has checked them already). */
    public static LoaderLimits from(PluginConfig config) {
        return new LoaderLimits(config.getLong(MAX_BYTES), config.getDuration(TIMEOUT));
    }

    /** Refuses an over-size document before any parsing, so a hostile upload costs nothing but the check. */
    public void requireWithinSize(LoadRequest request) {
        long size = request.bytes().length;
        if (size > maxBytes) {
            throw new DocumentLoadException(DocumentLoadException.Reason.TOO_LARGE,
                    "'" + request.fileName() + "' is " + ByteSizes.format(size) + "; this loader accepts at most "
                            + ByteSizes.format(maxBytes) + " (option '" + MAX_BYTES + "'). Split the document into smaller files.");
        }
    }

    /** A request past the checks every loader starts with, and the clock started for it. */
    public record Admitted(LoadRequest request, Deadline deadline) {}

    /**
     * The prelude of every {@code load}: the file name made safe for messages (it never appears anywhere else), the
     * size checked before any parsing, and the deadline started.
     */
    public Admitted admit(LoadRequest upload) {
        LoadRequest request = FileNames.forMessages(upload);
        requireWithinSize(request);
        return new Admitted(request, startDeadline(request));
    }

    /** Starts the clock for one document. */
    public Deadline startDeadline(LoadRequest request) {
        return Deadline.start(timeout, request.fileName());
    }
}
