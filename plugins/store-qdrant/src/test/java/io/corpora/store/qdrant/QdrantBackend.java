package io.corpora.store.qdrant;

import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.TestBackend;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.testcontainers.qdrant.QdrantContainer;

/**
 * The real Qdrant the ITs run against: a Testcontainers {@code qdrant/qdrant} container when a Docker engine answers, else
 * {@code CORPORA_TEST_QDRANT_URL}, else none (the ITs are skipped with that reason). One container per test JVM.
 */
final class QdrantBackend {

    /** The server version the client (io.qdrant:client 1.18.3) is built for. */
    static final String IMAGE = "qdrant/qdrant:v1.18.0";
    static final String URL_VARIABLE = "CORPORA_TEST_QDRANT_URL";
    static final TestBackend CHOICE = TestBackend.choose("qdrant", IMAGE, URL_VARIABLE,
            "export " + URL_VARIABLE + "=http://HOST:6334 (the gRPC port of a Qdrant 1.18), or start a Docker engine");

    private static QdrantContainer container;
    private static String url;

    private QdrantBackend() {}

    private static final java.util.Set<String> REPORTED = new java.util.HashSet<>();

    /** As {@link #url()}, first recording in the test report that this suite ran (or was skipped) on this backend. */
    static synchronized String url(Class<?> suite) {
        if (REPORTED.add(suite.getSimpleName())) {
            CHOICE.report("store-qdrant " + suite.getSimpleName());
        }
        return url();
    }

    /** The gRPC URL of the backend, starting the container on first use; skips the calling test when there is none. */
    static synchronized String url() {
        CHOICE.assumeAvailable();
        if (url == null) {
            if (CHOICE.kind() == TestBackend.Kind.CONTAINER) {
                container = new QdrantContainer(IMAGE);
                container.start();
                Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
                url = "http://" + container.getHost() + ":" + container.getMappedPort(container.getGrpcPort());
            } else {
                url = CHOICE.url();
            }
        }
        return url;
    }

    private static final java.util.Map<Class<?>, String> SUITE_PREFIXES = new java.util.HashMap<>();
    private static final java.util.List<String> HANDED_OUT = new java.util.ArrayList<>();

    /**
     * A collection prefix no other run uses, so runs against a shared Qdrant never meet; the collections made under it are
     * dropped when the test JVM ends (a container is discarded anyway, a server named by the URL is left as found).
     */
    static synchronized String freshPrefix(String label) {
        String prefix = "it" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL) + "_" + label;
        if (HANDED_OUT.isEmpty()) {
            Runtime.getRuntime().addShutdownHook(new Thread(QdrantBackend::dropHandedOut));
        }
        HANDED_OUT.add(prefix);
        return prefix;
    }

    /** One prefix per suite class: its tests share collections and are kept apart by tenant, as the contract intends. */
    static synchronized String prefixFor(Class<?> suite) {
        return SUITE_PREFIXES.computeIfAbsent(suite, s -> freshPrefix(s.getSimpleName().toLowerCase(java.util.Locale.ROOT)));
    }

    private static void dropHandedOut() {
        if (url == null || container != null) {
            return;
        }
        java.net.URI endpoint = java.net.URI.create(url);
        try (io.qdrant.client.QdrantClient client = new io.qdrant.client.QdrantClient(
                io.qdrant.client.QdrantGrpcClient.newBuilder(endpoint.getHost(), endpoint.getPort(), false).build())) {
            for (String collection : client.listCollectionsAsync().get()) {
                if (HANDED_OUT.stream().anyMatch(prefix -> collection.startsWith(prefix + "_"))) {
                    client.deleteCollectionAsync(collection).get();
                }
            }
        } catch (Exception e) {
            System.err.println("[test-backend] could not drop the test collections on " + url + ": " + e);
        }
    }

    static VectorStore open(String prefix, Map<String, String> more) {
        Map<String, String> options = new HashMap<>(Map.of(QdrantOptions.URL, url(), QdrantOptions.COLLECTION, prefix));
        options.putAll(more);
        return new QdrantVectorStoreProvider().create(PluginContext.of(Path.of("target", "qdrant-it"), "io.corpora.store.qdrant.it"),
                QdrantVectorStoreProviderTest.config(options));
    }
}
