package io.corpora.plugin.loader;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.SpiVersion;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

/**
 * Loads every plugin of a plugins directory, each in its own {@link PluginClassLoader}.
 *
 * <p>Layout: each {@code *.jar} directly in the directory is one plugin; each sub-directory is one plugin made
 * of the {@code *.jar} files in it (its own libraries included). Plugins load in name order. A broken jar, an
 * incompatible SPI version or a duplicate provider name is reported as a {@link PluginProblem}, logged at
 * SEVERE with the file, and never stops the other plugins.
 */
public final class PluginManager {

    private static final Logger LOG = Logger.getLogger(PluginManager.class.getName());

    private PluginManager() {}

    /** Loads plugins sharing the SPI of the class loader that loaded this class. */
    public static PluginRegistry load(Path pluginsDirectory) {
        return load(pluginsDirectory, PluginManager.class.getClassLoader());
    }

    static PluginRegistry load(Path pluginsDirectory, ClassLoader spiLoader) {
        Objects.requireNonNull(pluginsDirectory, "pluginsDirectory");
        List<PluginProblem> problems = new ArrayList<>();
        List<LoadedPlugin> plugins = new ArrayList<>();
        Map<PluginKind, Map<String, PluginRegistry.Registered>> providers = new LinkedHashMap<>();
        for (PluginKind kind : PluginKind.values()) {
            providers.put(kind, new LinkedHashMap<>());
        }
        if (!Files.isDirectory(pluginsDirectory)) {
            LOG.warning("plugins directory " + pluginsDirectory.toAbsolutePath() + " does not exist; no plugins loaded");
            return new PluginRegistry(pluginsDirectory, plugins, problems, providers);
        }
        for (Path candidate : candidates(pluginsDirectory)) {
            String name = pluginName(candidate);
            try {
                loadOne(name, candidate, spiLoader, plugins, problems, providers);
            } catch (RuntimeException | LinkageError e) {
                problems.add(new PluginProblem(name, candidate, "failed to load: " + e));
            }
        }
        problems.forEach(p -> LOG.severe("Plugin not loaded: " + p));
        plugins.forEach(p -> LOG.info("Loaded plugin '" + p.name() + "' " + p.version() + " (SPI " + p.spiVersion() + ") with "
                + p.providers().stream().map(d -> d.kind().label() + ":" + d.name()).toList()));
        return new PluginRegistry(pluginsDirectory, plugins, problems, providers);
    }

    private static List<Path> candidates(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.filter(p -> Files.isDirectory(p) || p.getFileName().toString().endsWith(".jar"))
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted(Comparator.comparing(p -> p.getFileName().toString()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugins directory " + directory, e);
        }
    }

    private static String pluginName(Path candidate) {
        String file = candidate.getFileName().toString();
        return file.endsWith(".jar") ? file.substring(0, file.length() - 4) : file;
    }

    private static void loadOne(String name, Path location, ClassLoader spiLoader, List<LoadedPlugin> plugins,
                                List<PluginProblem> problems, Map<PluginKind, Map<String, PluginRegistry.Registered>> providers) {
        List<Path> jars = jarsOf(location);
        if (jars.isEmpty()) {
            problems.add(new PluginProblem(name, location, "holds no jar files"));
            return;
        }
        String spiVersion = null;
        String version = "unknown";
        for (Path jar : jars) {
            Manifest manifest;
            try (JarFile jarFile = new JarFile(jar.toFile())) {
                manifest = jarFile.getManifest();
            } catch (IOException e) {
                problems.add(new PluginProblem(name, jar, "is not a readable jar: " + e.getMessage()));
                return;
            }
            Attributes attributes = manifest == null ? new Attributes() : manifest.getMainAttributes();
            String declared = attributes.getValue(SpiVersion.MANIFEST_ATTRIBUTE);
            if (declared != null) {
                if (spiVersion != null && !spiVersion.equals(declared)) {
                    problems.add(new PluginProblem(name, jar, "jars declare different SPI versions: " + spiVersion + " and " + declared));
                    return;
                }
                spiVersion = declared;
                if (attributes.getValue("Implementation-Version") != null) {
                    version = attributes.getValue("Implementation-Version");
                }
            }
        }
        if (spiVersion == null) {
            problems.add(new PluginProblem(name, location, "no jar declares '" + SpiVersion.MANIFEST_ATTRIBUTE
                    + "' in its manifest; rebuild the plugin against platform-api " + SpiVersion.CURRENT));
            return;
        }
        try {
            if (!SpiVersion.isCompatible(spiVersion)) {
                problems.add(new PluginProblem(name, location, "plugin '" + name + "' was built for SPI " + spiVersion
                        + " but this server provides SPI " + SpiVersion.CURRENT + " (major must match, minor must not be newer)"));
                return;
            }
        } catch (IllegalArgumentException e) {
            problems.add(new PluginProblem(name, location, e.getMessage()));
            return;
        }

        PluginClassLoader loader = new PluginClassLoader(name, urls(jars), spiLoader);
        List<ProviderDescriptor> descriptors = new ArrayList<>();
        boolean discoveredAny = false;
        for (PluginKind kind : PluginKind.values()) {
            for (PluginProvider<?> provider : discover(name, location, kind, loader, problems)) {
                discoveredAny = true;
                ProviderDescriptor descriptor;
                try {
                    descriptor = new ProviderDescriptor(kind, provider.name(), provider.description(), provider.getClass().getName(),
                            provider.configOptions());
                } catch (RuntimeException e) {
                    problems.add(new PluginProblem(name, location, kind.label() + " provider " + provider.getClass().getName()
                            + " failed to describe itself: " + e));
                    continue;
                }
                if (descriptor.name() == null || !descriptor.name().matches("[a-z][a-z0-9-]{0,62}")) {
                    problems.add(new PluginProblem(name, location, kind.label() + " provider " + descriptor.className()
                            + " has an invalid name '" + descriptor.name() + "' (lower-case letters, digits and '-')"));
                    continue;
                }
                PluginRegistry.Registered existing = providers.get(kind).get(descriptor.name());
                if (existing != null) {
                    problems.add(new PluginProblem(name, location, "duplicate " + kind.label() + " provider name '" + descriptor.name()
                            + "': already provided by plugin '" + existing.plugin() + "' (" + existing.location()
                            + "); this one is ignored"));
                    continue;
                }
                providers.get(kind).put(descriptor.name(), new PluginRegistry.Registered(name, location, loader, provider, descriptor));
                descriptors.add(descriptor);
            }
        }
        if (descriptors.isEmpty()) {
            if (!discoveredAny) {
                problems.add(new PluginProblem(name, location, "contributes no provider (missing META-INF/services entries?)"));
            }
            closeQuietly(loader);
            return;
        }
        plugins.add(new LoadedPlugin(name, location, version, spiVersion, jars, descriptors));
    }

    private static List<PluginProvider<?>> discover(String name, Path location, PluginKind kind, PluginClassLoader loader,
                                                    List<PluginProblem> problems) {
        List<PluginProvider<?>> found = new ArrayList<>();
        ServiceLoader<? extends PluginProvider<?>> serviceLoader = ServiceLoader.load(kind.providerType(), loader);
        var iterator = serviceLoader.stream().iterator();
        while (true) {
            try {
                if (!iterator.hasNext()) {
                    break;
                }
                ServiceLoader.Provider<? extends PluginProvider<?>> candidate = iterator.next();
                if (candidate.type().getClassLoader() != loader) {
                    continue; // visible through the SPI loader, not contributed by this plugin
                }
                found.add(withContextLoader(loader, candidate::get));
            } catch (ServiceConfigurationError | LinkageError e) {
                problems.add(new PluginProblem(name, location, "cannot instantiate a " + kind.label() + " provider: " + e));
                LOG.log(Level.FINE, "provider failure in " + name, e);
            }
        }
        return found;
    }

    static <T> T withContextLoader(ClassLoader loader, java.util.function.Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static List<Path> jarsOf(Path location) {
        if (!Files.isDirectory(location)) {
            return List.of(location);
        }
        try (Stream<Path> files = Files.walk(location, 2)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list plugin folder " + location, e);
        }
    }

    private static URL[] urls(List<Path> jars) {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IllegalArgumentException("bad jar path " + jars.get(i), e);
            }
        }
        return urls;
    }

    private static void closeQuietly(PluginClassLoader loader) {
        try {
            loader.close();
        } catch (IOException e) {
            LOG.log(Level.FINE, "closing plugin class loader", e);
        }
    }
}
