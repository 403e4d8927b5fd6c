package io.corpora.store.qdrant;

import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.testkit.TestBackend;
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

    /** A collection prefix no other run uses, so runs against a shared Qdrant never meet. */
    static String freshPrefix(String label) {
        return "it" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffffL) + "_" + label;
    }

    static VectorStore open(String prefix, Map<String, String> more) {
        Map<String, String> options = new HashMap<>(Map.of(QdrantOptions.URL, url(), QdrantOptions.COLLECTION, prefix));
        options.putAll(more);
        return new QdrantVectorStoreProvider().create(PluginContext.of(Path.of("target", "qdrant-it"), "io.corpora.store.qdrant.it"),
                QdrantVectorStoreProviderTest.config(options));
    }
}
