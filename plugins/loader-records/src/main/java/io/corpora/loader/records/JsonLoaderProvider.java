package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonPointer;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.ArrayList;
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

    static final String RECORDS_PATH = "recordsPath";

    @Override
    public List<ConfigOption> configOptions() {
        List<ConfigOption> options = new ArrayList<>(RecordLoaderOptions.declarations());
        options.add(ConfigOption.builder(RECORDS_PATH, ConfigType.STRING)
                .description("JSON Pointer to the array (or object) holding the records, e.g. /data for {\"data\": [...]}; "
                        + "empty for the top level.").build());
        return List.copyOf(options);
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        RecordLoaderOptions options = RecordLoaderOptions.from(config);
        JsonPointer recordsPath;
        try {
            recordsPath = JsonPointer.compile(config.getString(RECORDS_PATH).orElse(""));
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(name(), List.of("option '" + RECORDS_PATH + "' is not a JSON Pointer "
                    + "(like /data or /result/items): " + e.getMessage()));
        }
        return new RecordLoader(new JsonArrayReader(Parsers.jsonFactory(options), new JsonRecordRenderer(options.metadataFields()),
                recordsPath), options);
    }
}
