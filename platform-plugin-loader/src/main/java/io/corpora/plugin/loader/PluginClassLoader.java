package io.corpora.plugin.loader;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Collections;
import java.util.Enumeration;

/**
 * The class loader of one plugin (Trino's model). It sees the JDK (through the platform class loader), the
 * plugin's own jars, and the SPI packages — delegated to the server's loader so SPI types are shared. Nothing
 * else of the server or of other plugins is visible, so plugins may bundle any library version they like.
 */
final class PluginClassLoader extends URLClassLoader {

    static final String SPI_PACKAGE = "io.corpora.spi.";
    private static final String SPI_RESOURCE_PREFIX = "io/corpora/spi/";

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader spiLoader;

    PluginClassLoader(String pluginName, URL[] jars, ClassLoader spiLoader) {
        super("corpora-plugin:" + pluginName, jars, ClassLoader.getPlatformClassLoader());
        this.spiLoader = spiLoader;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(SPI_PACKAGE)) {
            return spiLoader.loadClass(name);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                try {
                    loaded = getParent().loadClass(name); // JDK first: plugins may not replace java.*
                } catch (ClassNotFoundException notInJdk) {
                    loaded = findClass(name);
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    @Override
    public URL getResource(String name) {
        if (name.startsWith(SPI_RESOURCE_PREFIX)) {
            return spiLoader.getResource(name);
        }
        return super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        if (name.startsWith(SPI_RESOURCE_PREFIX)) {
            return spiLoader.getResources(name);
        }
        return super.getResources(name);
    }

    /** Service files come only from this plugin's jars, never from the JDK or the server. */
    Enumeration<URL> ownResources(String name) throws IOException {
        Enumeration<URL> own = findResources(name);
        return own == null ? Collections.emptyEnumeration() : own;
    }
}
