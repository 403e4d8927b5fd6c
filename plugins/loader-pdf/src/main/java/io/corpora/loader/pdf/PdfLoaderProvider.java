package io.corpora.loader.pdf;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** PDF through Apache PDFBox: one section per page, with page, byte, decoded-stream and time limits. */
public final class PdfLoaderProvider implements DocumentLoaderProvider {

    static final String MAX_PAGES = "maxPages";
    static final String MAX_STREAM_BYTES = "maxStreamBytes";

    @Override
    public String name() {
        return "pdf";
    }

    @Override
    public String description() {
        return "PDF via Apache PDFBox: text per page (metadata 'page'); encrypted, corrupt and decompression-bomb files refused";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("application/pdf", "application/x-pdf");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("pdf");
    }

    @Override
    public List<ConfigOption> configOptions() {
        List<ConfigOption> options = new ArrayList<>(LoaderLimits.options(50L * 1024 * 1024, "60s"));
        options.add(ConfigOption.builder(MAX_PAGES, ConfigType.INT).defaultValue(2000).minimum(1)
                .description("Most pages accepted; a longer PDF fails with TOO_LARGE before any text is extracted.").build());
        options.add(ConfigOption.builder(MAX_STREAM_BYTES, ConfigType.LONG).defaultValue(64L * 1024 * 1024).minimum(1)
                .description("Largest decoded size of any one compressed stream (page content, form, font), in bytes. "
                        + "Guards against decompression bombs: every stream is measured by streaming decode before "
                        + "PDFBox reads it into memory.").build());
        return List.copyOf(options);
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        LoaderLimits limits = LoaderLimits.from(config);
        return new PdfLoader(limits, config.getInt(MAX_PAGES), config.getLong(MAX_STREAM_BYTES));
    }
}
