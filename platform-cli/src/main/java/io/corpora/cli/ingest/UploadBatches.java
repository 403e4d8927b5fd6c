package io.corpora.cli.ingest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * Files grouped into upload jobs, in order: at most {@code maxFiles} files and {@code maxBytes} bytes each, so a batch of
 * large files is not refused as a whole for the request size ({@code corpora.ingest.maxRequestBytes}); a file larger than
 * {@code maxBytes} goes alone, for the server to accept or refuse by its own limit.
 */
final class UploadBatches {

    private UploadBatches() {}

    static <T> List<List<T>> of(List<T> files, ToLongFunction<T> bytes, int maxFiles, long maxBytes) {
        if (maxFiles < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a batch holds at least one file and one byte");
        }
        List<List<T>> batches = new ArrayList<>();
        List<T> batch = new ArrayList<>();
        long batchBytes = 0;
        for (T file : files) {
            long size = bytes.applyAsLong(file);
            if (!batch.isEmpty() && (batch.size() == maxFiles || batchBytes + size > maxBytes)) {
                batches.add(batch);
                batch = new ArrayList<>();
                batchBytes = 0;
            }
            batch.add(file);
            batchBytes += size;
        }
        if (!batch.isEmpty()) {
            batches.add(batch);
        }
        return batches;
    }
}
