package io.corpora.filter.audience;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import java.util.List;

/**
 * The default audience ACL: a document's {@code audience} metadata (one value or a list) names who may see it, and
 * an actor sees a chunk when they share at least one value. An actor holding no value sees nothing.
 */
public final class AudienceFilterHookProvider implements RetrievalFilterHookProvider {

    static final String DEFAULT_TEMPLATES = "public,role:{roles},user:{sub},group:{groups}";

    @Override
    public String name() {
        return "audience";
    }

    @Override
    public String description() {
        return "Audience ACL: a chunk is visible when its audience metadata shares a value with the actor's expanded templates";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("key", ConfigType.STRING).defaultValue("audience")
                        .description("The metadata key holding a document's audience (a value or a list).").build(),
                ConfigOption.builder("templates", ConfigType.LIST).defaultValue(DEFAULT_TEMPLATES)
                        .description("Comma-separated audience values the actor holds; {sub}, {tenant}, {roles} and {groups} "
                                + "are expanded from the verified token.").build());
    }

    /** The key and every template, as {@link #create} reads them. */
    @Override
    public void validate(PluginConfig config) {
        Settings.from(config);
    }

    @Override
    public RetrievalFilterHook create(PluginContext context, PluginConfig config) {
        Settings settings = Settings.from(config);
        return actor -> MetadataFilter.anyOf(settings.key(), settings.templates().expand(actor));
    }

    private record Settings(String key, AudienceTemplates templates) {
        static Settings from(PluginConfig config) {
            AudienceTemplates templates = new AudienceTemplates(config.getList("templates"));
            String key = config.requireString("key");
            MetadataFilter.exists(key); // validates the key now, not at the first request
            return new Settings(key, templates);
        }
    }
}
