package io.corpora.cli.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class UploadBatchesTest {

    private static final long MB = 1024 * 1024;

    @Test
    void smallFilesGoByCountInTheirOrder() {
        List<Long> files = List.of(1L, 2L, 3L, 4L, 5L);
        assertEquals(List.of(List.of(1L, 2L), List.of(3L, 4L), List.of(5L)), UploadBatches.of(files, Long::longValue, 2, 32 * MB));
    }

    @Test
    void largeFilesCloseABatchBeforeItExceedsTheBytes() {
        List<Long> files = List.of(10 * MB, 10 * MB, 10 * MB, 10 * MB, MB);
        assertEquals(List.of(List.of(10 * MB, 10 * MB, 10 * MB), List.of(10 * MB, MB)), UploadBatches.of(files, Long::longValue, 16, 32 * MB));
    }

    @Test
    void aFileLargerThanTheBytesGoesAlone() {
        List<Long> files = List.of(MB, 40 * MB, MB, MB);
        assertEquals(List.of(List.of(MB), List.of(40 * MB), List.of(MB, MB)), UploadBatches.of(files, Long::longValue, 16, 32 * MB));
    }

    @Test
    void nothingToUploadIsNoBatch() {
        assertEquals(List.of(), UploadBatches.<Long>of(List.of(), Long::longValue, 16, 32 * MB));
        assertThrows(IllegalArgumentException.class, () -> UploadBatches.of(List.of(1L), Long::longValue, 0, 32 * MB));
    }
}
