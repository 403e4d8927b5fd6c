package io.corpora.server.health;

import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.server.installedplugins.PluginService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the plugins directory has been read. Plugins that failed to load are reported (the server still
 * serves tenants whose plugins did load), so the count is visible to operators.
 */
@Readiness
@ApplicationScoped
public class PluginsReadinessCheck implements HealthCheck {

    @Inject
    PluginService plugins;

    @Override
    public HealthCheckResponse call() {
        PluginRegistry registry = plugins.registry();
        return HealthCheckResponse.named("plugins")
                .status(registry != null)
                .withData("loaded", registry == null ? 0 : registry.plugins().size())
                .withData("problems", registry == null ? 0 : registry.problems().size())
                .build();
    }
}
