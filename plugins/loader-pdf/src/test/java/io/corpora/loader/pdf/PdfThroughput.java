package io.corpora.loader.pdf;

import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.testkit.Loaders;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.text.PDFTextStripper;
import java.io.IOException;
import java.util.Locale;
import java.util.Map;

/**
 * Measurement, run by hand (not a test): pages per second for a 200-page text PDF built with PDFBox, and the time
 * to refuse a nested Flate bomb (1 GB expanded) with default limits.
 * {@code mvn -q -o -f plugins/loader-pdf/pom.xml test-compile exec:java -Dexec.classpathScope=test
 * -Dexec.mainClass=io.corpora.loader.pdf.PdfThroughput}
 */
public final class PdfThroughput {

    private PdfThroughput() {}

    public static void main(String[] args) throws IOException {
        DocumentLoader loader = Loaders.create("pdf", Map.of());
        String[] pages = new String[200];
        String line = "The quick brown fox jumps over the lazy dog while the committee reviews the budget.";
        for (int i = 0; i < pages.length; i++) {
            pages[i] = (line + "\n").repeat(40).strip();
        }
        byte[] pdf = TestPdfs.withPages("Benchmark", pages);
        int runs = 5;
        double seconds = Loaders.secondsPerLoad(loader, new LoadRequest(pdf, "application/pdf", null, "bench.pdf"), runs);
        System.out.printf(Locale.ROOT, "pdf: %d pages (%.1f KB) x %d runs: %.0f pages/s, %.1f ms per document%n",
                pages.length, pdf.length / 1024.0, runs, pages.length / seconds, seconds * 1000);
        // The same work with bare PDFBox (no guards, no per-page sections): the loader's overhead, robust to machine load.
        long start = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            try (PDDocument document = Loader.loadPDF(pdf)) {
                new PDFTextStripper().getText(document);
            }
        }
        double bare = (System.nanoTime() - start) / 1e9 / runs;
        System.out.printf(Locale.ROOT, "pdf: bare PDFBox on the same file: %.1f ms per document (loader/bare = %.2f)%n",
                bare * 1000, seconds / bare);

        byte[] bomb = TestPdfs.compressionBomb(1024L * 1024 * 1024, 2);
        start = System.nanoTime();
        try {
            loader.load(new LoadRequest(bomb, "application/pdf", null, "bomb.pdf"));
            System.out.println("pdf bomb: NOT refused");
        } catch (DocumentLoadException e) {
            System.out.printf(Locale.ROOT, "pdf bomb: %.1f KB file expanding to 1 GB refused (%s) in %.0f ms%n",
                    bomb.length / 1024.0, e.reason(), (System.nanoTime() - start) / 1e6);
        }
    }
}
