package io.corpora.server.admin.model;

import io.corpora.plugin.loader.LoadedPlugin;
import io.corpora.plugin.loader.PluginProblem;
import io.corpora.spi.config.ConfigOption;
import io.corpora.plugin.loader.ProviderDescriptor;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbProperty;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** GET /admin/v1/plugins: the loaded plugins, their providers and declared options, and the plugins that failed to load. */
@Schema(name = "PluginCatalog")
@JsonbPropertyOrder({"spiVersion", "directory", "plugins", "problems"})
public record PluginCatalog(@Schema String spiVersion, @Schema String directory, @Schema List<Plugin> plugins, @Schema List<Problem> problems) {

    @Schema(name = "Plugin")
    @JsonbPropertyOrder({"name", "version", "spiVersion", "location", "jars", "providers"})
    public record Plugin(@Schema String name, @Schema @JsonbNillable String version, @Schema @JsonbNillable String spiVersion, @Schema String location, @Schema List<String> jars,
                         @Schema List<Provider> providers) {

        public static Plugin of(LoadedPlugin plugin) {
            return new Plugin(plugin.name(), plugin.version(), plugin.spiVersion(), plugin.location().getFileName().toString(),
                    plugin.jars().stream().map(j -> j.getFileName().toString()).toList(),
                    plugin.providers().stream().map(Provider::of).toList());
        }
    }

    @Schema(name = "PluginProvider")
    @JsonbPropertyOrder({"kind", "name", "description", "options"})
    public record Provider(@Schema String kind, @Schema String name, @Schema @JsonbNillable String description, @Schema List<Option> options) {

        static Provider of(ProviderDescriptor provider) {
            return new Provider(provider.kind().label(), provider.name(), provider.description(),
                    provider.options().stream().map(Option::of).toList());
        }
    }

    /**
     * A declared option; {@code default} is null for secrets and options without one; bounds, allowed values and aliases
     * (older spellings still accepted) when declared.
     */
    @Schema(name = "PluginOption")
    @JsonbPropertyOrder({"name", "type", "default", "required", "secret", "description", "allowedValues", "minimum", "maximum", "aliases"})
    public record Option(@Schema String name, @Schema String type, @Schema @JsonbProperty("default") @JsonbNillable String defaultValue, @Schema boolean required,
                         @Schema boolean secret, @Schema @JsonbNillable String description, @Schema List<String> allowedValues, @Schema String minimum, @Schema String maximum,
                         @Schema List<String> aliases) {

        static Option of(ConfigOption option) {
            return new Option(option.name(), option.type().name(), option.secret() ? null : option.defaultValue(), option.required(),
                    option.secret(), option.description(), option.allowedValues().isEmpty() ? null : option.allowedValues(),
                    option.minimum(), option.maximum(), option.aliases().isEmpty() ? null : option.aliases());
        }
    }

    @Schema(name = "PluginProblem")
    @JsonbPropertyOrder({"plugin", "location", "message"})
    public record Problem(@Schema String plugin, @Schema String location, @Schema String message) {

        public static Problem of(PluginProblem problem) {
            return new Problem(problem.plugin(), problem.location().getFileName().toString(), problem.message());
        }
    }
}
