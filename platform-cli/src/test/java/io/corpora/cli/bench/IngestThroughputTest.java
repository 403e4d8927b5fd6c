package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class IngestThroughputTest {

    @TempDir
    Path out;

    @Test
    void theIngestConcurrenciesAreAListOfWriterCounts() {
        assertEquals(List.of(1, 2, 4), BenchCommand.ingestWriters("1, 2,4"));
        assertEquals(List.of(2), BenchCommand.ingestWriters("2,2"));
        assertThrows(UsageException.class, () -> BenchCommand.ingestWriters("0,2"));
        assertThrows(UsageException.class, () -> BenchCommand.ingestWriters("two"));
        assertThrows(UsageException.class, () -> BenchCommand.ingestWriters(""));
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        UsageException only = assertThrows(UsageException.class, () -> new BenchCommand().run(List.of("--only", "fleet"), sink, sink));
        assertTrue(only.getMessage().contains("ingest"), only.getMessage());
    }

    /** Like for like per concurrency, against the embedder's best rate, and the pipeline's CPU beyond the embedder's. */
    @Test
    void theSummaryComparesLikeForLikeAgainstCapacityAndInCpu() throws Exception {
        BenchResults results = new BenchResults(Profile.QUICK);
        results.ingest(100, List.of(
                new IngestThroughput.Rates(1, new IngestThroughput.Side(100, 10, 5.0), new IngestThroughput.Side(100, 12.5, 5.5)),
                new IngestThroughput.Rates(2, new IngestThroughput.Side(100, 5, 5.0), new IngestThroughput.Side(100, 5.5, 5.25))));
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        results.write(out, new PrintStream(printed, true, StandardCharsets.UTF_8));
        String summary = Files.readString(out.resolve("summary.txt"));
        assertTrue(summary.contains("1 writer     8.0 chunks/s against the raw embedder's   10.0 with as many callers =  80 %; CPU 55.0 vs 50.0 ms"
                + " per chunk: the pipeline's own cost 10 % of the embedder's"), summary);
        assertTrue(summary.contains("2 writers   18.2 chunks/s against the raw embedder's   20.0 with as many callers =  91 %"), summary);
        assertTrue(summary.contains("its best: 20.0 chunks/s with 2 caller(s)): the best pipeline 18.2 chunks/s with 2 writer(s) = 91 %"), summary);
        String csv = Files.readString(out.resolve("results.csv"));
        assertTrue(csv.contains("ingest,-,100,pipeline,2,chunks_per_s,18.1818"), csv);
        assertTrue(csv.contains("ingest,-,100,raw embedder,1,cpu_ms_per_chunk,50.0000"), csv);
        assertTrue(Files.notExists(out.resolve("latency-vs-tenant-size.png")), "no latency, no plot");
    }
}
