package io.corpora.loader.records;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.Identifiers;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The options every record loader declares: byte and time limits, how many records, how large one record may be
 * once rendered, and which top-level fields are copied into each record's section metadata (for filtering).
 */
record RecordLoaderOptions(LoaderLimits limits, int maxRecords, int maxRecordChars, Set<String> metadataFields) {

    static final String MAX_RECORDS = "maxRecords";
    static final String MAX_RECORD_CHARS = "maxRecordChars";
    static final String METADATA_FIELDS = "metadataFields";

    static List<ConfigOption> declarations() {
        List<ConfigOption> options = new ArrayList<>(LoaderLimits.options(50L * 1024 * 1024, "60s"));
        options.add(ConfigOption.builder(MAX_RECORDS, ConfigType.INT).defaultValue(100_000).minimum(1)
                .description("Most records accepted in one document; more fails with TOO_LARGE.").build());
        options.add(ConfigOption.builder(MAX_RECORD_CHARS, ConfigType.INT).defaultValue(100_000).minimum(1)
                .description("Largest record, in characters of its rendered 'field: value' text (and largest single "
                        + "string value the parser accepts); a larger record fails with TOO_LARGE.").build());
        options.add(ConfigOption.builder(METADATA_FIELDS, ConfigType.LIST)
                .description("Top-level fields (JSON keys, CSV header names) whose scalar values are copied into each "
                        + "record's metadata, so retrieval can filter on them. Names must be valid metadata keys.").build());
        return List.copyOf(options);
    }

    static RecordLoaderOptions from(PluginConfig config) {
        LoaderLimits limits = LoaderLimits.from(config);
        int maxRecords = config.getInt(MAX_RECORDS);
        int maxRecordChars = config.getInt(MAX_RECORD_CHARS);
        Set<String> fields = new LinkedHashSet<>(config.getList(METADATA_FIELDS));
        List<String> problems = new ArrayList<>();
        for (String field : fields) {
            if (!Identifiers.METADATA_KEY.matcher(field).matches() || field.startsWith("_")) {
                problems.add("option '" + METADATA_FIELDS + "': '" + field + "' is not a usable metadata key (letters, digits, "
                        + "'_', '.', '-', starting with a letter)");
            }
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(config.provider(), problems);
        }
        return new RecordLoaderOptions(limits, maxRecords, maxRecordChars, Set.copyOf(fields));
    }
}
