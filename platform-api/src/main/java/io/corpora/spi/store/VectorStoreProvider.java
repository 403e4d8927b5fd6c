package io.corpora.spi.store;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.config.ConfigOption;
import java.util.LinkedHashSet;
import java.util.Set;

/** Creates {@link VectorStore}s; discovered with {@link java.util.ServiceLoader}. */
public interface VectorStoreProvider extends PluginProvider<VectorStore> {

    /**
     * The options that decide <em>where</em> this store's data lives (a directory, a database, a table, column names):
     * two instances that agree on them, as written, read and write the same chunks whatever their other options
     * (search breadth, HNSW build parameters, batch sizes…). The server derives an instance's
     * {@link io.corpora.spi.config.PluginContext#dataDirectory() data directory} from these alone, so changing any other
     * option keeps a tenant on its data; and it refuses a change of any of these on a tenant that holds documents, which
     * would leave them behind (moving data is a relocation, not a configuration change).
     *
     * <p>Default: every declared option, the safe answer for a provider that does not say. Since SPI 1.2.
     */
    default Set<String> locationOptions() {
        Set<String> names = new LinkedHashSet<>();
        for (ConfigOption option : configOptions()) {
            names.add(option.name());
        }
        return names;
    }
}
