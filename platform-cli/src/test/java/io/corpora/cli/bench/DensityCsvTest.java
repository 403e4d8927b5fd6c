package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A density run's CSV read back as the rows it was written from, and plotted. */
class DensityCsvTest {

    @TempDir
    Path dir;

    @Test
    void theRowsWrittenAreTheRowsReadBackAndPlotted() throws IOException {
        List<DensityBench.Row> rows = List.of(
                new DensityBench.Row(0, new ProcessResources.Sample(201, 61, 690L << 20, (long) (67.6 * DensityBench.MB)), -1, -1, -1, -1),
                new DensityBench.Row(1000, new ProcessResources.Sample(461, 67, 1682L << 20, (long) (368.9 * DensityBench.MB)), 204.5, 136.0, 1.42, 1.87));
        Path csv = dir.resolve("density.csv");
        DensityBench.writeCsv(rows, csv);
        List<DensityBench.Row> read = DensityBench.readCsv(csv);
        assertEquals(rows.stream().map(DensityBench.Row::csv).toList(), read.stream().map(DensityBench.Row::csv).toList());
        assertEquals(461, read.get(1).resources().openFiles());
        assertEquals(368.9, read.get(1).liveHeapMb(), 0.05);
        assertEquals(1.87, read.get(1).serverCpuMsPerQuery(), 0.005);

        Path png = dir.resolve("density.png");
        DensityPlot.write(read, "test", png);
        byte[] magic = Arrays.copyOf(Files.readAllBytes(png), 8);
        assertArrayEquals(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'}, magic);
    }

    @Test
    void aCsvOfARunBeforeTheSteadyFiguresReadsWithThemUnmeasured() throws IOException {
        Path earlier = dir.resolve("density-2026-12-02.csv");
        Files.writeString(earlier, DensityBench.Row.CSV_HEADER_V1 + "\n0,201,61,690.0,67.6,-1.0,-1.0\n1000,461,67,1682.0,368.9,204.5,136.0\n");
        List<DensityBench.Row> read = DensityBench.readCsv(earlier);
        assertEquals(2, read.size());
        assertEquals(136.0, read.get(1).warmQueryMs());
        assertEquals(-1, read.get(1).steadyP50Ms());
        assertEquals(-1, read.get(1).serverCpuMsPerQuery());
    }

    @Test
    void aFileThatIsNotADensityCsvIsRefusedByName() throws IOException {
        Path other = dir.resolve("results.csv");
        Files.writeString(other, "kind,tenant,chunks,system,clients,metric,value\n");
        IOException refused = assertThrows(IOException.class, () -> DensityBench.readCsv(other));
        assertEquals(true, refused.getMessage().contains("is not a density CSV"));
    }
}
