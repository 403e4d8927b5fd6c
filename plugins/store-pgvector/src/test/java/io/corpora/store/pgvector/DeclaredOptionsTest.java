package io.corpora.store.pgvector;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void pgvectorOptions() {
        RecordedOptions.assertRecordedDefaults(new PgVectorStoreProvider(), """
                name                     | type    | default                    | minimum | maximum  | aliases
                dataSource               | STRING  |                            |         |          |
                jdbcUrl                  | STRING  |                            |         |          |
                user                     | STRING  |                            |         |          |
                password                 | STRING  | (secret)                   |         |          |
                poolSize                 | INT     | 8                          | 1       | 256      |
                table                    | STRING  | corpora_chunks             |         |          |
                columns                  | LIST    |                            |         |          |
                dimension                | LIST    | 384                        |         |          |
                metric                   | ENUM    | cosine                     |         |          |
                hnsw.efSearch            | INT     | 100                        | 1       | 1000     | efSearch
                numCandidatesFactor      | INT     | 4                          | 1       | 100      |
                minCandidates            | INT     | 100                        | 1       | 1000     |
                iterativeScan            | ENUM    | relaxed_order              |         |          |
                maxScanTuples            | INT     | 20000                      | 1       |          |
                exactSearchMaxRows       | INT     | 10000                      | 0       | 10000000 |
                exactSearchRecheckMillis | INT     | 1000                       | 0       | 3600000  |
                hnsw.m                   | INT     | 16                         | 2       | 100      | hnswM
                hnsw.efConstruction      | INT     | 64                         | 4       | 1000     | hnswEfConstruction
                upsertBatchSize          | INT     | 100                        | 1       | 5000     |
                nullableEmbeddings       | BOOLEAN | false                      |         |          |
                fullText                 | BOOLEAN | true                       |         |          |
                fullTextLanguage         | ENUM    | english                    |         |          |
                stopWords                | LIST    | english,portuguese,spanish |         |          |
                anyTermFallback          | BOOLEAN | true                       |         |          |
                ensureSchema             | BOOLEAN | false                      |         |          |
                tenantPartitions         | LIST    |                            |         |          |
                replicaJdbcUrls          | LIST    |                            |         |          |
                maxReplicaLagMillis      | INT     | 5000                       | 0       | 3600000  |
                consistencyWaitMillis    | INT     | 1000                       | 0       | 60000    |
                """);
    }
}
