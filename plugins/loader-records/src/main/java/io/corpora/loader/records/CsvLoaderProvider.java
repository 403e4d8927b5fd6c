package io.corpora.loader.records;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** CSV with a header row: one section per row, fields named by the header. */
public final class CsvLoaderProvider implements DocumentLoaderProvider {

    static final String SEPARATOR = "separator";
    private static final Map<String, Character> SEPARATORS = Map.of("comma", ',', "semicolon", ';', "tab", '\t', "pipe", '|');

    @Override
    public String name() {
        return "csv";
    }

    @Override
    public String description() {
        return "CSV with a header row: one 'header: value' section per row (metadata 'record': the data row number), streamed with limits";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("text/csv", "application/csv");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("csv");
    }

    @Override
    public List<ConfigOption> configOptions() {
        List<ConfigOption> options = new ArrayList<>(RecordLoaderOptions.declarations());
        options.add(ConfigOption.builder(SEPARATOR, ConfigType.ENUM).defaultValue("comma")
                .allowedValues("comma", "semicolon", "tab", "pipe")
                .description("The field separator.").build());
        return List.copyOf(options);
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        RecordLoaderOptions options = RecordLoaderOptions.from(config);
        char separator = SEPARATORS.get(config.requireString(SEPARATOR));
        return new RecordLoader(new CsvReader(Parsers.csvFactory(options), separator, options.metadataFields()), options);
    }
}
