package io.corpora.server.installedplugins;

import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.Optional;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Loads the plugins directory once at startup. The directory is {@code corpora.plugins.dir}, by default
 * {@code plugins/} inside the Liberty server's configuration directory.
 */
@ApplicationScoped
public class PluginService {

    private static final Logger LOG = Logger.getLogger(PluginService.class.getName());

    @Inject
    @ConfigProperty(name = "corpora.plugins.dir")
    Optional<String> configuredDirectory;

    private PluginRegistry registry;

    @PostConstruct
    void load() {
        Path directory = configuredDirectory.map(Path::of).orElseGet(PluginService::defaultDirectory);
        LOG.info("Loading plugins from " + directory.toAbsolutePath());
        registry = PluginManager.load(directory);
    }

    /** Loads eagerly at deployment, so plugin problems show in the log at boot, not at the first request. */
    void onStartup(@Observes @Initialized(ApplicationScoped.class) Object event) {
        registry();
    }

    public PluginRegistry registry() {
        return registry;
    }

    private static Path defaultDirectory() {
        String serverConfigDir = System.getProperty("server.config.dir", System.getenv("SERVER_CONFIG_DIR"));
        return serverConfigDir == null ? Path.of("plugins") : Path.of(serverConfigDir, "plugins");
    }
}
