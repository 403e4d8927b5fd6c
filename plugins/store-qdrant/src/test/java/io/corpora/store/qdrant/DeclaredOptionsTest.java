package io.corpora.store.qdrant;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void qdrantOptions() {
        RecordedOptions.assertRecordedDefaults(new QdrantVectorStoreProvider(), """
                name                  | type     | default  | minimum | maximum  | aliases
                url                   | STRING   |          |         |          |
                apiKey                | STRING   | (secret) |         |          |
                trustStore            | PATH     |          |         |          |
                trustStorePassword    | STRING   | (secret) |         |          |
                timeout               | DURATION | 10s      | 1ms     | 10m      |
                collection            | STRING   | corpora  |         |          |
                metric                | ENUM     | cosine   |         |          |
                hnsw.m                | INT      | 16       | 2       | 128      | hnswM
                hnsw.efConstruction   | INT      | 100      | 4       | 4096     | hnswEfConstruction
                hnsw.efSearch         | INT      | 128      | 1       | 10000    | efSearch
                exactSearch           | BOOLEAN  | false    |         |          |
                upsertBatchSize       | INT      | 256      | 1       | 10000    |
                upsertWait            | BOOLEAN  | true     |         |          |
                keywordSearch         | BOOLEAN  | true     |         |          |
                bm25.k1               | DOUBLE   | 1.2      | 0       | 10       |
                bm25.b                | DOUBLE   | 0.75     | 0       | 1        |
                bm25.avgLength        | INT      | 256      | 1       | 100000   |
                tieredMultitenancy    | BOOLEAN  | false    |         |          |
                dedicatedTenants      | LIST     |          |         |          |
                clientFilterMaxPoints | INT      | 100000   | 100     | 10000000 |
                listSnapshotTtl       | DURATION | 60s      | 0s      | 1h       |
                """);
    }
}
