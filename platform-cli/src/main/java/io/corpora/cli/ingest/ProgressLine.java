package io.corpora.cli.ingest;

import java.io.PrintStream;
import java.time.Duration;

/** A one-line progress bar on a terminal (stderr): documents, documents/s, chunks/s and ETA. */
final class ProgressLine {

    private static final int WIDTH = 30;

    private final PrintStream out;
    private final int total;
    private final long started = System.nanoTime();

    ProgressLine(PrintStream out, int total) {
        this.out = out;
        this.total = total;
    }

    void show(int done, long chunks) {
        double seconds = Math.max(1e-3, (System.nanoTime() - started) / 1e9);
        double docsPerSecond = done / seconds;
        int filled = total == 0 ? WIDTH : (int) Math.round(WIDTH * (double) done / total);
        long etaSeconds = docsPerSecond == 0 ? 0 : Math.round((total - done) / docsPerSecond);
        Duration eta = Duration.ofSeconds(etaSeconds);
        out.printf("\r[%s%s] %d/%d documents  %.1f docs/s  %.1f chunks/s  ETA %02d:%02d:%02d ",
                "#".repeat(filled), "-".repeat(WIDTH - filled), done, total, docsPerSecond, chunks / seconds,
                eta.toHours(), eta.toMinutesPart(), eta.toSecondsPart());
        out.flush();
    }

    void finish() {
        out.println();
    }
}
