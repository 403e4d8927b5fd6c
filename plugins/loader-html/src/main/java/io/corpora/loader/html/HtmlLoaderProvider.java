package io.corpora.loader.html;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** HTML through jsoup: the page's main content as Markdown, so the heading-aware chunker can split it. */
public final class HtmlLoaderProvider implements DocumentLoaderProvider {

    @Override
    public String name() {
        return "html";
    }

    @Override
    public String description() {
        return "HTML via jsoup: main content as Markdown (headings, lists, code, tables), boilerplate dropped, nothing fetched";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("text/html", "application/xhtml+xml");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("html", "htm", "xhtml");
    }

    @Override
    public List<ConfigOption> configOptions() {
        return LoaderLimits.options(10L * 1024 * 1024, "20s");
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        return new HtmlLoader(LoaderLimits.from(config));
    }
}
