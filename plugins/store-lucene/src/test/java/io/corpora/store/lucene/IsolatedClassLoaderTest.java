package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.corpora.plugin.loader.PluginKind;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.testkit.PluginHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.junit.jupiter.api.Test;

/**
 * The plugin works the way the server loads it: its classes and Lucene jarred into a plugins directory and loaded by
 * the real plugin loader, in a class loader of its own that shares only the SPI and the JDK. ServiceLoader must find
 * the provider, and Lucene must find its codecs and analyzers through its own SPI inside that loader.
 */
class IsolatedClassLoaderTest {

    private static final float[] VECTOR = {0.1f, 0.2f, 0.3f, 0.4f};

    @Test
    void theProviderWritesAndSearchesFromAnIsolatedPluginClassLoader() {
        try (PluginHarness plugin = PluginHarness.plugin("store-lucene").classes(Path.of("target", "classes"))
                .withJarOf(IndexWriter.class, EnglishAnalyzer.class).load()) {
            ClassLoader loader = plugin.classLoaderOf(PluginKind.VECTOR_STORE, "lucene");
            assertNotSame(LuceneVectorStore.class.getClassLoader(), loader, "the plugin runs from its own copy of its classes");
            assertNotSame(LuceneVectorStore.class, plugin.classOf(PluginKind.VECTOR_STORE, "lucene", LuceneVectorStore.class.getName()),
                    "an isolated copy");
            assertSame(loader, plugin.classOf(PluginKind.VECTOR_STORE, "lucene", IndexWriter.class.getName()).getClassLoader(),
                    "Lucene comes from the plugin's own jars");
            Namespace acme = Namespace.of("acme");
            try (VectorStore store = plugin.create(VectorStoreProvider.class, "lucene", Map.of("quantization", "int8"))) {
                store.upsert(acme, List.of(new EmbeddedChunk(
                        new Chunk("d#0", "d", 0, "isolated lodging policy", List.of(), Map.of("k", "v")), VECTOR)));
                assertEquals(1L, store.count(acme, MetadataFilter.all()));
                assertEquals(1, store.search(acme, SearchRequest.keyword("lodges", 5, MetadataFilter.all(), null, null)).size(),
                        "English stemming works inside the isolated loader");
                assertEquals(1, store.search(acme, SearchRequest.vector(VECTOR, 5, MetadataFilter.all(), null, null)).size(),
                        "the int8 HNSW codec works inside the isolated loader");
            }
            // Reopening reads the segments back through Lucene's codec SPI lookup (by name) inside the plugin loader.
            try (VectorStore store = plugin.create(VectorStoreProvider.class, "lucene", Map.of("quantization", "int8"))) {
                assertEquals(1, store.search(acme, SearchRequest.vector(VECTOR, 5, MetadataFilter.all(), null, null)).size(),
                        "the reopened index is readable inside the isolated loader");
            }
        }
    }
}
