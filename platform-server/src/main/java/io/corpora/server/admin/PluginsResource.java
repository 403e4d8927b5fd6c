package io.corpora.server.admin;

import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.server.Roles;
import io.corpora.server.admin.model.PluginCatalog;
import io.corpora.server.installedplugins.PluginService;
import io.corpora.spi.SpiVersion;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
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
    public PluginCatalog list() {
        PluginRegistry registry = plugins.registry();
        return new PluginCatalog(SpiVersion.CURRENT, registry.directory().toAbsolutePath().toString(),
                registry.plugins().stream().map(PluginCatalog.Plugin::of).toList(),
                registry.problems().stream().map(PluginCatalog.Problem::of).toList());
    }
}
