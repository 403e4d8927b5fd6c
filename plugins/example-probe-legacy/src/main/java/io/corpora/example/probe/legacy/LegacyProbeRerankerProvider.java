package io.corpora.example.probe.legacy;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import org.apache.commons.lang3.StringUtils;

/**
 * Example reranker built on commons-lang3 3.12: scores a text by how many query words it contains.
 * Its description reports the commons-lang3 version this plugin's class loader sees.
 */
public final class LegacyProbeRerankerProvider implements RerankerProvider {

    @Override
    public String name() {
        return "probe-legacy";
    }

    @Override
    public String description() {
        return "example plugin; sees commons-lang3 " + StringUtils.class.getPackage().getImplementationVersion();
    }

    @Override
    public Reranker create(PluginContext context, PluginConfig config) {
        return (query, texts) -> texts.stream()
                .mapToDouble(text -> java.util.Arrays.stream(StringUtils.split(query))
                        .filter(word -> StringUtils.containsIgnoreCase(text, word)).count())
                .toArray();
    }
}
