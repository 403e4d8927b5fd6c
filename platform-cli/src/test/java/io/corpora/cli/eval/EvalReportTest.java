package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Latency percentiles of the report (the metrics are tested in platform-core, where they live). */
class EvalReportTest {

    @Test
    void percentilesAreNearestRank() {
        double[] values = {5, 1, 4, 2, 3};
        assertEquals(3, EvalReport.percentile(values, 50));
        assertEquals(5, EvalReport.percentile(values, 99));
        assertEquals(0, EvalReport.percentile(new double[0], 50));
    }
}
