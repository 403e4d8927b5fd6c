package io.corpora.store.lucene;

import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.NoMergePolicy;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.store.FSDirectory;

/** Creates Lucene stores the way the server does: through the provider, with validated options. */
final class StoreFixtures {

    private StoreFixtures() {}

    static LuceneVectorStore open(Path directory, Map<String, String> options) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), options);
        return (LuceneVectorStore) provider.create(PluginContext.of(directory, "store-lucene-test"), config);
    }

    /**
     * A namespace the store wrote ({@code first}, default options), then one committed segment per entry of
     * {@code segmentSizes}, its chunks {@code chunk.apply("c<segment>-<n>")}, written with merging off and the store's
     * commit data so the store opens them as its own (as a namespace written under other merge settings keeps them).
     * Returns the namespace's directory.
     */
    static Path withRawSegments(Path data, Namespace namespace, EmbeddedChunk first, int[] segmentSizes,
                                Function<String, EmbeddedChunk> chunk) throws IOException {
        try (LuceneVectorStore store = open(data, Map.of())) {
            store.upsert(namespace, List.of(first));
        }
        Path path = LuceneVectorStore.pathOf(data, namespace);
        try (FSDirectory directory = FSDirectory.open(path);
             IndexWriter raw = new IndexWriter(directory, new IndexWriterConfig().setMergePolicy(NoMergePolicy.INSTANCE))) {
            raw.setLiveCommitData(SegmentInfos.readLatestCommit(directory).getUserData().entrySet());
            for (int s = 0; s < segmentSizes.length; s++) {
                for (int d = 0; d < segmentSizes[s]; d++) {
                    raw.addDocument(ChunkDocuments.toDocument(chunk.apply("c" + s + "-" + d), VectorSimilarity.COSINE, false));
                }
                raw.commit();
            }
        }
        return path;
    }

    /** Segments in a namespace directory's last commit. */
    static int committedSegments(Path namespaceDirectory) {
        try (FSDirectory directory = FSDirectory.open(namespaceDirectory)) {
            return SegmentInfos.readLatestCommit(directory).size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
