package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.store.VectorStore;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged plugin bundle, as the server unpacks and loads it: one folder of jars (never platform-api), loaded in a
 * class loader whose parent sees only the SPI and the JDK. gRPC, Netty, Guava and protobuf must work from inside it — a
 * store is created and makes a real gRPC call, to a loopback port where nothing listens — and the client's Guava is the
 * bundle's own, not the one on the test class path.
 */
class PluginBundleIT {

    @TempDir
    Path unpacked;

    @Test
    void theBundleIsOneFolderOfItsOwnJarsAndWorksInAnIsolatedLoader() throws Exception {
        Path zip = Path.of(System.getProperty("corpora.plugin.bundle", "target/store-qdrant-0.1.0-SNAPSHOT-plugin.zip"));
        Map<String, Long> jars = unzip(zip);
        System.out.println("[plugin-bundle] " + zip.getFileName() + " (" + Files.size(zip) + " bytes zipped): " + jars.size() + " jars, "
                + jars.values().stream().mapToLong(Long::longValue).sum() + " bytes");
        jars.forEach((name, size) -> System.out.println("[plugin-bundle]   " + name + " " + size));
        assertTrue(jars.keySet().stream().allMatch(name -> name.startsWith("store-qdrant/")), "one folder: " + jars.keySet());
        List<String> names = jars.keySet().stream().map(n -> n.substring("store-qdrant/".length())).toList();
        assertFalse(names.stream().anyMatch(n -> n.startsWith("platform-api")), "the SPI is the server's, never bundled: " + names);
        for (String required : List.of("store-qdrant-", "client-1.18.3.jar", "grpc-netty-shaded-", "grpc-core-", "grpc-stub-",
                "guava-", "protobuf-java-", "slf4j-api-", "slf4j-jdk14-")) {
            assertTrue(names.stream().anyMatch(n -> n.startsWith(required)), required + " in " + names);
        }
        for (String excluded : List.of("jsr305-", "j2objc-annotations-", "jspecify-", "animal-sniffer-annotations-", "listenablefuture-",
                "testcontainers-", "junit-")) {
            assertFalse(names.stream().anyMatch(n -> n.startsWith(excluded)), excluded + " must not be bundled: " + names);
        }

        List<URL> urls = new ArrayList<>();
        try (var files = Files.list(unpacked.resolve("store-qdrant"))) {
            for (Path jar : files.sorted().toList()) {
                urls.add(jar.toUri().toURL());
            }
        }
        URL spiJar = VectorStore.class.getProtectionDomain().getCodeSource().getLocation();
        try (URLClassLoader spi = new URLClassLoader(new URL[] {spiJar}, ClassLoader.getPlatformClassLoader());
             URLClassLoader plugin = new URLClassLoader(urls.toArray(URL[]::new), spi)) {
            Class<?> providerType = spi.loadClass("io.corpora.spi.store.VectorStoreProvider");
            Object provider = ServiceLoader.load(providerType, plugin).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> "qdrant".equals(invoke(p, "name"))).findFirst().orElseThrow();
            assertSame(plugin, provider.getClass().getClassLoader());
            Class<?> guava = plugin.loadClass("com.google.common.util.concurrent.ListenableFuture");
            assertSame(plugin, guava.getClassLoader(), "Guava comes from the bundle");
            assertNotSame(com.google.common.util.concurrent.ListenableFuture.class, guava, "and is not the test class path's");
            assertSame(plugin, plugin.loadClass("io.grpc.netty.shaded.io.netty.channel.Channel").getClassLoader());

            Class<?> contextType = spi.loadClass("io.corpora.spi.config.PluginContext");
            Class<?> configType = spi.loadClass("io.corpora.spi.config.PluginConfig");
            Object context = contextType.getMethod("of", Path.class, String.class).invoke(null, unpacked.resolve("data"), "bundle-it");
            Object config = configType.getMethod("validate", String.class, List.class, Map.class).invoke(null, "qdrant",
                    invoke(provider, "configOptions"), Map.of("url", QdrantVectorStoreProviderTest.closedEndpoint(), "timeout", "3s"));
            try (AutoCloseable store = (AutoCloseable) provider.getClass().getMethod("create", contextType, configType)
                    .invoke(provider, context, config)) {
                InvocationTargetException failed = org.junit.jupiter.api.Assertions.assertThrows(InvocationTargetException.class,
                        () -> spi.loadClass("io.corpora.spi.store.VectorStore").getMethod("checkHealth").invoke(store));
                Throwable cause = failed.getCause();
                assertEquals("io.corpora.store.qdrant.QdrantStoreException", cause.getClass().getName());
                assertSame(plugin, cause.getClass().getClassLoader());
                assertTrue(cause.getMessage().contains("failed to answer a health check: UNAVAILABLE"),
                        "a real gRPC call over Netty from inside the bundle's loader: " + cause.getMessage());
            }
        }
    }

    private Map<String, Long> unzip(Path zip) throws IOException {
        Map<String, Long> jars = new TreeMap<>();
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                if (entry.isDirectory()) {
                    continue;
                }
                Path target = unpacked.resolve(entry.getName()).normalize();
                assertTrue(target.startsWith(unpacked), "no entry escapes the plugins directory: " + entry.getName());
                Files.createDirectories(target.getParent());
                Files.copy(in, target); // the zip stream stays open for the next entry
                jars.put(entry.getName(), Files.size(target));
            }
        }
        return jars;
    }

    private static Object invoke(Object target, String method) {
        try {
            return target.getClass().getMethod(method).invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
