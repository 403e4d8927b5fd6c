package io.corpora.loader.records;

import io.corpora.testkit.DocumentLoaderContract;
import java.util.List;
import java.util.Map;

/**
 * The loader contract for a records format (JSON, JSONL, CSV). The record cap is lifted for the suite, so that the slow
 * document's many records meet the time limit rather than the cap; the cap itself is checked with {@code maxRecords: 2}
 * on a document of three records.
 */
abstract class RecordLoaderContract extends DocumentLoaderContract {

    /** A document of this format holding exactly three records. */
    protected abstract Sample threeRecords();

    @Override
    protected final Map<String, String> config() {
        return Map.of("maxRecords", "1000000");
    }

    @Override
    protected final List<CountLimit> countLimits() {
        return List.of(new CountLimit("maxRecords", "2", threeRecords()));
    }
}
