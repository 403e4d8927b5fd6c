package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A table holding two models' vectors of different widths: searches compare only same-width vectors. */
class MixedDimensionsIT {

    private static final String TABLE = "it_mixed_widths";

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    private static float[] vector(Random random, int width) {
        float[] v = new float[width];
        for (int i = 0; i < width; i++) {
            v[i] = random.nextFloat() * 2 - 1;
        }
        return v;
    }

    @Test
    void eachWidthIsSearchedThroughItsOwnPartialIndex() throws Exception {
        Namespace ns = Namespace.of("mixed");
        Random random = new Random(5);
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "4,6", PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "0"))) {
            List<EmbeddedChunk> rows = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                int width = i % 2 == 0 ? 4 : 6;
                rows.add(new EmbeddedChunk(new Chunk("c" + i, "d", i, "t", List.of(), Map.of(ReservedKeys.EMBEDDER, "model-" + width)),
                        vector(random, width)));
            }
            store.upsert(ns, rows);

            List<ScoredChunk> narrow = store.search(ns, SearchRequest.vector(vector(random, 4), 50, MetadataFilter.all(), null, null));
            assertEquals(15, narrow.size());
            narrow.forEach(hit -> assertEquals("model-4", hit.chunk().metadata().get(ReservedKeys.EMBEDDER)));
            List<ScoredChunk> wide = store.search(ns, SearchRequest.vector(vector(random, 6), 50, MetadataFilter.all(), null, "model-6"));
            assertEquals(15, wide.size());
            wide.forEach(hit -> assertEquals("model-6", hit.chunk().metadata().get(ReservedKeys.EMBEDDER)));

            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> store.search(ns, SearchRequest.vector(vector(random, 5), 5, MetadataFilter.all(), null, null)));
            assertTrue(e.getMessage().contains("[4, 6]"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> store.upsert(ns,
                    List.of(new EmbeddedChunk(new Chunk("bad", "d", 0, "t", List.of(), Map.of()), vector(random, 5)))));
        }
        for (int width : new int[] {4, 6}) {
            String plan = explain("SELECT chunk_id FROM " + TABLE + " WHERE tenant = 'mixed' AND partition_key = '_default'"
                    + " AND embedding IS NOT NULL AND vector_dims(embedding) = " + width
                    + " ORDER BY (embedding::vector(" + width + ")) <=> (SELECT embedding::vector(" + width + ") FROM " + TABLE
                    + " WHERE vector_dims(embedding) = " + width + " LIMIT 1) LIMIT 10");
            assertTrue(plan.contains(TABLE + "_embedding_" + width + "_cosine_idx"), "the " + width + "-d query uses its partial index:\n" + plan);
        }
    }

    private static String explain(String sql) throws Exception {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET enable_seqscan = off");
            statement.execute("SET enable_sort = off");
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery("EXPLAIN " + sql)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            return plan.toString();
        }
    }
}
