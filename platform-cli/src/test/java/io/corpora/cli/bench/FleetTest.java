package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.plugin.loader.PluginManager;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The measured tenants are the same whether the fleet is written (the whole bench) or not ({@code --only http}). */
class FleetTest {

    private static final Path PLUGINS = Path.of(System.getProperty("corpora.plugins.dir", "target/plugins"));

    @TempDir
    Path work;

    @Test
    void theMeasuredTenantsOfAnUnwrittenFleetHoldTheChunksWritingItGivesThem() throws Exception {
        assumeTrue(Files.isDirectory(PLUGINS.resolve("store-lucene")), "no plugin bundles at " + PLUGINS.toAbsolutePath()
                + " (built by the plugin-bundles profile; or pass -Dcorpora.plugins.dir)");
        Profile shape = Profile.QUICK.resized(9, 60);
        BenchCorpus corpus = SyntheticCorpus.of(12, 8, 7, List.of("passage"));
        List<Fleet.Tenant> written;
        try (VectorStore store = PluginManager.load(PLUGINS).create(VectorStoreProvider.class, "lucene", BenchCommand.context(work, "lucene"),
                Map.of("directory", work.resolve("lucene").toString()))) {
            Fleet.Written fleet = Fleet.write(shape, corpus, "e1", store, "lucene", System.err);
            assertEquals(shape.totalChunks(), fleet.chunks());
            written = fleet.measured();
            for (Fleet.Tenant tenant : written) {
                assertEquals(tenant.size(), store.count(tenant.namespace(), MetadataFilter.all()), tenant.bucket() + " tenant in the store");
            }
        }
        List<Fleet.Tenant> unwritten = Fleet.measuredTenants(shape, corpus, "e1");

        assertEquals(List.of("smallest", "median", "largest"), unwritten.stream().map(Fleet.Tenant::bucket).toList());
        assertEquals(List.of(shape.sizeOf(9), shape.sizeOf(4), 60), unwritten.stream().map(Fleet.Tenant::size).toList());
        assertEquals(written.size(), unwritten.size());
        for (int t = 0; t < written.size(); t++) {
            Fleet.Tenant a = written.get(t);
            Fleet.Tenant b = unwritten.get(t);
            assertEquals(a.bucket(), b.bucket());
            assertEquals(a.rank(), b.rank());
            assertEquals(a.namespace(), b.namespace());
            assertEquals(a.ids(), b.ids());
            assertEquals(a.texts(), b.texts());
            for (int j = 0; j < a.size(); j++) {
                assertArrayEquals(a.vectors().get(j), b.vectors().get(j), a.bucket() + " chunk " + j);
            }
        }
    }
}
