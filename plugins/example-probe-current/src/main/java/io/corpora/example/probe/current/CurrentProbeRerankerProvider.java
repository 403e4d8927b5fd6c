package io.corpora.example.probe.current;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.time.Duration;
import java.util.List;
import org.apache.commons.lang3.StringUtils;
import org.apache.commons.lang3.Strings;

/**
 * Example reranker built on commons-lang3 3.18, using {@link Strings}, a class 3.12 does not have: if plugins
 * shared one class loader with the legacy probe, this plugin would fail with NoClassDefFoundError.
 *
 * <p>Its {@code delay} and {@code fail} options make it a misbehaving plugin on purpose, for fault-tolerance tests.
 */
public final class CurrentProbeRerankerProvider implements RerankerProvider {

    @Override
    public String name() {
        return "probe-current";
    }

    @Override
    public String description() {
        return "example plugin; sees commons-lang3 " + StringUtils.class.getPackage().getImplementationVersion();
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("delay", ConfigType.DURATION).defaultValue("0ms")
                        .description("Wait this long before answering (simulates a slow plugin).").build(),
                ConfigOption.builder("fail", ConfigType.BOOLEAN).defaultValue(false)
                        .description("Throw instead of answering (simulates a broken plugin).").build());
    }

    @Override
    public Reranker create(PluginContext context, PluginConfig config) {
        Duration delay = config.getDuration("delay");
        boolean fail = config.getBoolean("fail");
        return (query, texts) -> {
            pause(delay);
            if (fail) {
                throw new IllegalStateException("probe-current is configured to fail");
            }
            String[] words = StringUtils.split(query);
            return texts.stream()
                    .mapToDouble(text -> java.util.Arrays.stream(words).filter(word -> Strings.CI.contains(text, word)).count())
                    .toArray();
        };
    }

    private static void pause(Duration delay) {
        if (delay.isZero()) {
            return;
        }
        try {
            Thread.sleep(delay.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
