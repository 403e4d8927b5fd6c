package io.corpora.loader.records;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** A JSON array of records (or one object), one section per item. */
public final class JsonLoaderProvider implements DocumentLoaderProvider {

    @Override
    public String name() {
        return "json";
    }

    @Override
    public String description() {
        return "JSON array of records (or one object): one 'field: value' section per item, streamed with limits";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("application/json");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("json");
    }

    @Override
    public List<ConfigOption> configOptions() {
        return RecordLoaderOptions.declarations();
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        RecordLoaderOptions options = RecordLoaderOptions.from(config);
        return new RecordLoader(new JsonArrayReader(Parsers.jsonFactory(options), new JsonRecordRenderer(options.metadataFields())),
                options);
    }
}
