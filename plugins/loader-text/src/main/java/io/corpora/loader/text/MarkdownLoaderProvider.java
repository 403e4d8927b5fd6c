package io.corpora.loader.text;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** Markdown: YAML front matter becomes metadata, the body stays Markdown for the heading-aware chunker. */
public final class MarkdownLoaderProvider implements DocumentLoaderProvider {

    @Override
    public String name() {
        return "markdown";
    }

    @Override
    public String description() {
        return "Markdown (YAML front matter to metadata, title from the first H1, headings kept for the Markdown chunker)";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("text/markdown", "text/x-markdown");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("md", "markdown", "mdown", "mkd");
    }

    @Override
    public List<ConfigOption> configOptions() {
        return LoaderLimits.options(TextLoaderProvider.DEFAULT_MAX_BYTES, TextLoaderProvider.DEFAULT_TIMEOUT);
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        return new MarkdownLoader(LoaderLimits.from(config));
    }
}
