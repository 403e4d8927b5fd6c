package io.corpora.plugin.loader;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/** What {@link PluginManager} loaded: the plugins, the problems, and the providers by kind and name. */
public final class PluginRegistry {

    record Registered(String plugin, Path location, ClassLoader loader, PluginProvider<?> provider, ProviderDescriptor descriptor) {}

    private final Path directory;
    private final List<LoadedPlugin> plugins;
    private final List<PluginProblem> problems;
    private final Map<PluginKind, Map<String, Registered>> providers;

    PluginRegistry(Path directory, List<LoadedPlugin> plugins, List<PluginProblem> problems,
                   Map<PluginKind, Map<String, Registered>> providers) {
        this.directory = directory;
        this.plugins = List.copyOf(plugins);
        this.problems = List.copyOf(problems);
        this.providers = providers;
    }

    public Path directory() {
        return directory;
    }

    public List<LoadedPlugin> plugins() {
        return plugins;
    }

    public List<PluginProblem> problems() {
        return problems;
    }

    public Optional<ProviderDescriptor> describe(PluginKind kind, String name) {
        return Optional.ofNullable(providers.get(kind).get(name)).map(Registered::descriptor);
    }

    public List<String> names(PluginKind kind) {
        return List.copyOf(new TreeSet<>(providers.get(kind).keySet()));
    }

    /** The provider of that kind and name; {@link IllegalArgumentException} naming the ones available otherwise. */
    public <P extends PluginProvider<?>> P provider(Class<P> kind, String name) {
        return kind.cast(registered(PluginKind.require(kind), name).provider());
    }

    public <P extends PluginProvider<?>> List<P> providers(Class<P> kind) {
        return providers.get(PluginKind.require(kind)).values().stream().map(r -> kind.cast(r.provider())).toList();
    }

    /**
     * Checks {@code rawConfig} as {@link #create} would before creating, creating nothing: against the provider's declared
     * options, then by {@link PluginProvider#validate} (with the plugin's class loader as context loader).
     *
     * @throws InvalidConfigException listing every problem (an {@link IllegalArgumentException} the provider throws becomes
     *                                one); an {@link IllegalArgumentException} for an unknown provider
     */
    public void validate(PluginKind kind, String name, Map<String, String> rawConfig) {
        Registered registered = registered(kind, name);
        PluginConfig config = declared(registered, name, rawConfig);
        PluginManager.withContextLoader(registered.loader(), () -> {
            try {
                registered.provider().validate(config);
            } catch (IllegalArgumentException refused) { // a refusal in the JDK's words is a refusal all the same
                throw refused instanceof InvalidConfigException invalid ? invalid : new InvalidConfigException(name, List.of(refused.getMessage()));
            }
            return null;
        });
    }

    /**
     * Validates {@code rawConfig} against the provider's declared options, creates the instance with the plugin's
     * class loader as context loader, and returns it wrapped so every call also runs with that context loader.
     */
    @SuppressWarnings("unchecked")
    public <T> T create(Class<? extends PluginProvider<T>> kind, String name, PluginContext context, Map<String, String> rawConfig) {
        PluginKind pluginKind = PluginKind.require(kind);
        Registered registered = registered(pluginKind, name);
        PluginProvider<T> provider = (PluginProvider<T>) registered.provider();
        PluginConfig config = declared(registered, name, rawConfig);
        T instance = PluginManager.withContextLoader(registered.loader(), () -> provider.create(context, config));
        if (instance == null) {
            throw new IllegalStateException(pluginKind.label() + " provider '" + name + "' created null");
        }
        return (T) withContextLoaderOnEveryCall(pluginKind.serviceType(), instance, registered.loader());
    }

    /** {@code rawConfig} checked against what the provider declares (types, bounds, required). */
    private static PluginConfig declared(Registered registered, String name, Map<String, String> rawConfig) {
        return PluginConfig.validate(name, registered.descriptor().options(), rawConfig == null ? Collections.emptyMap() : rawConfig);
    }

    /** The class loader of the plugin that contributed a provider (for diagnostics and tests). */
    public ClassLoader classLoaderOf(PluginKind kind, String name) {
        return registered(kind, name).loader();
    }

    private Registered registered(PluginKind kind, String name) {
        Registered registered = providers.get(kind).get(name);
        if (registered == null) {
            throw new IllegalArgumentException("no " + kind.label() + " provider named '" + name + "'; loaded: "
                    + names(kind) + " (plugins directory " + directory + ")");
        }
        return registered;
    }

    private static Object withContextLoaderOnEveryCall(Class<?> serviceType, Object instance, ClassLoader loader) {
        if (!serviceType.isInstance(instance)) {
            throw new IllegalStateException(instance.getClass().getName() + " does not implement " + serviceType.getName());
        }
        InvocationHandler handler = (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> instance.toString();
                    default -> method.invoke(instance, args);
                };
            }
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(loader);
            try {
                return method.invoke(instance, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            } finally {
                thread.setContextClassLoader(previous);
            }
        };
        return Proxy.newProxyInstance(serviceType.getClassLoader(), new Class<?>[] {serviceType}, handler);
    }
}
