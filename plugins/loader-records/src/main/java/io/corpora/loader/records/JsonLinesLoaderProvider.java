package io.corpora.loader.records;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** JSON Lines / NDJSON: one section per line. */
public final class JsonLinesLoaderProvider implements DocumentLoaderProvider {

    @Override
    public String name() {
        return "jsonl";
    }

    @Override
    public String description() {
        return "JSON Lines / NDJSON: one 'field: value' section per line (metadata 'record' and 'line'), streamed with limits";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("application/jsonl", "application/x-ndjson", "application/x-jsonlines", "application/jsonlines");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("jsonl", "ndjson");
    }

    @Override
    public List<ConfigOption> configOptions() {
        return RecordLoaderOptions.declarations();
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        RecordLoaderOptions options = RecordLoaderOptions.from(config);
        return new RecordLoader(new JsonLinesReader(Parsers.jsonFactory(options), new JsonRecordRenderer(options.metadataFields())),
                options);
    }
}
