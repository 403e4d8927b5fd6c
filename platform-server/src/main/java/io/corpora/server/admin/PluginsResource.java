package io.corpora.server.admin;

import io.corpora.plugin.loader.LoadedPlugin;
import io.corpora.plugin.loader.PluginProblem;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.plugin.loader.ProviderDescriptor;
import io.corpora.server.Roles;
import io.corpora.server.installedplugins.PluginService;
import io.corpora.spi.SpiVersion;
import io.corpora.spi.config.ConfigOption;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /admin/v1/plugins}: what loaded from the plugins directory, what each provider declares, and what failed. */
@Path("/admin/v1/plugins")
@RequestScoped
@Tag(name = "admin")
public class PluginsResource {

    @Inject
    PluginService plugins;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.PLATFORM_ADMIN)
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "List loaded plugins, their providers and declared options, and plugins that failed to load")
    public Map<String, Object> list() {
        PluginRegistry registry = plugins.registry();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("spiVersion", SpiVersion.CURRENT);
        body.put("directory", registry.directory().toAbsolutePath().toString());
        body.put("plugins", registry.plugins().stream().map(PluginsResource::plugin).toList());
        body.put("problems", registry.problems().stream().map(PluginsResource::problem).toList());
        return body;
    }

    private static Map<String, Object> plugin(LoadedPlugin plugin) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", plugin.name());
        out.put("version", plugin.version());
        out.put("spiVersion", plugin.spiVersion());
        out.put("location", plugin.location().getFileName().toString());
        out.put("jars", plugin.jars().stream().map(j -> j.getFileName().toString()).toList());
        out.put("providers", plugin.providers().stream().map(PluginsResource::provider).toList());
        return out;
    }

    private static Map<String, Object> provider(ProviderDescriptor provider) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("kind", provider.kind().label());
        out.put("name", provider.name());
        out.put("description", provider.description());
        out.put("options", provider.options().stream().map(PluginsResource::option).toList());
        return out;
    }

    private static Map<String, Object> option(ConfigOption option) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("name", option.name());
        out.put("type", option.type().name());
        out.put("default", option.secret() || option.defaultValue() == null ? null : option.defaultValue());
        out.put("required", option.required());
        out.put("secret", option.secret());
        out.put("description", option.description());
        if (!option.allowedValues().isEmpty()) {
            out.put("allowedValues", option.allowedValues());
        }
        if (option.minimum() != null) {
            out.put("minimum", option.minimum());
        }
        if (option.maximum() != null) {
            out.put("maximum", option.maximum());
        }
        if (!option.aliases().isEmpty()) {
            out.put("aliases", option.aliases());
        }
        return out;
    }

    private static Map<String, Object> problem(PluginProblem problem) {
        return Map.of("plugin", problem.plugin(), "location", problem.location().getFileName().toString(), "message", problem.message());
    }

}
