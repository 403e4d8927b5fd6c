package io.corpora.loader.pdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.testkit.Loaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class PdfLoaderTest {

    private static DocumentLoaderProvider provider() {
        return Loaders.provider("pdf");
    }

    private static DocumentLoader loader(Map<String, String> options) {
        return Loaders.create("pdf", options);
    }

    private static LoadedDocument load(DocumentLoader loader, byte[] pdf) {
        return loader.load(new LoadRequest(pdf, "application/pdf", null, "report.pdf"));
    }

    private static DocumentLoadException failure(DocumentLoader loader, byte[] pdf) {
        return assertThrows(DocumentLoadException.class, () -> load(loader, pdf));
    }

    private final DocumentLoader defaults = loader(Map.of());

    @Test
    void providerDeclaresPdfAndItsLimits() {
        assertEquals(Set.of("application/pdf", "application/x-pdf"), provider().mediaTypes());
        assertEquals(Set.of("pdf"), provider().fileExtensions());
        assertEquals(List.of("maxBytes", "timeout", "maxPages", "maxStreamBytes"),
                provider().configOptions().stream().map(o -> o.name()).toList());
    }

    @Test
    void eachPageWithTextIsOneSectionCarryingItsOneBasedPageNumber() {
        byte[] pdf = TestPdfs.withPages("Travel Policy", "First page text\nsecond line", null, "  ", "Fourth page text");
        LoadedDocument doc = load(defaults, pdf);
        assertEquals(ContentFormat.PROSE, doc.format());
        assertEquals("Travel Policy", doc.title());
        assertEquals(2, doc.sections().size());
        assertEquals("First page text\nsecond line", doc.sections().get(0).text());
        assertEquals(Map.of("page", 1), doc.sections().get(0).metadata());
        assertEquals("Fourth page text", doc.sections().get(1).text());
        assertEquals(Map.of("page", 4), doc.sections().get(1).metadata());
        assertEquals(4, doc.metadata().get("pages"));
        assertEquals("Test Author", doc.metadata().get("author"));
    }

    @Test
    void oneLoaderServesConcurrentCallers() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<LoadedDocument>> results = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                byte[] pdf = TestPdfs.withPages("Doc " + i, "first of " + i, "second of " + i);
                results.add(callers.submit(() -> load(defaults, pdf)));
            }
            for (int i = 0; i < results.size(); i++) {
                LoadedDocument doc = results.get(i).get(60, TimeUnit.SECONDS);
                assertEquals("Doc " + i, doc.title());
                assertEquals(List.of("first of " + i, "second of " + i), doc.sections().stream().map(s -> s.text()).toList());
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void untitledPdfHasNoTitle() {
        assertNull(load(defaults, TestPdfs.withPages(null, "text")).title());
    }

    @Test
    void passwordProtectedPdfIsEncrypted() {
        DocumentLoadException e = failure(defaults, TestPdfs.encrypted("owner-secret", "user-secret", true));
        assertEquals(Reason.ENCRYPTED, e.reason());
        assertEquals("'report.pdf' is password-protected; upload a copy saved without a password", e.getMessage());
    }

    @Test
    void pdfWhoseOwnerForbidsExtractionIsEncrypted() {
        DocumentLoadException e = failure(defaults, TestPdfs.encrypted("owner-secret", "", false));
        assertEquals(Reason.ENCRYPTED, e.reason());
        assertTrue(e.getMessage().contains("forbid text extraction"), e.getMessage());
    }

    @Test
    void pdfEncryptedOnlyWithAnOwnerPasswordThatAllowsExtractionLoads() {
        assertEquals("Confidential text", load(defaults, TestPdfs.encrypted("owner-secret", "", true)).sections().get(0).text());
    }

    @Test
    void truncatedPdfIsMalformed() {
        byte[] pdf = TestPdfs.withPages("t", "alpha", "beta", "gamma");
        DocumentLoadException e = failure(defaults, Arrays.copyOf(pdf, pdf.length / 3));
        assertEquals(Reason.MALFORMED, e.reason(), e.getMessage());
        assertTrue(e.getMessage().startsWith("'report.pdf' is not a readable PDF"), e.getMessage());
    }

    @Test
    void cutOffContentStreamIsMalformedInsteadOfSilentlyPartialText() {
        // PDFBox alone returns the first 12 of the 60 lines with only a logged warning.
        DocumentLoadException e = failure(defaults, TestPdfs.truncatedContentStream());
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("the compressed text of page 1 ends before its data is complete"), e.getMessage());
    }

    @Test
    void bytesThatAreNotAPdfAreMalformed() {
        DocumentLoadException e = failure(defaults, "hello, I am not a PDF".getBytes(StandardCharsets.US_ASCII));
        assertEquals(Reason.MALFORMED, e.reason());
    }

    @Test
    void morePagesThanAllowedIsTooLarge() {
        DocumentLoadException e = failure(loader(Map.of("maxPages", "3")), TestPdfs.withPages(null, "1", "2", "3", "4", "5"));
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertEquals("'report.pdf' has 5 pages; this loader accepts at most 3 (option 'maxPages'). Split the PDF.", e.getMessage());
    }

    @Test
    void pageTreeThatUnderstatesItsCountIsStillHeldToThePageLimit() {
        DocumentLoadException e = failure(loader(Map.of("maxPages", "3")), TestPdfs.understatedPageCount(6));
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().contains("understates the count"), e.getMessage());
    }

    @Test
    void overSizeFileIsTooLargeBeforeParsing() {
        DocumentLoadException e = failure(loader(Map.of("maxBytes", "100")), TestPdfs.withPages(null, "text"));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }

    @Test
    void highlyCompressedStreamOverTheLimitIsRefusedAsABomb() {
        byte[] pdf = TestPdfs.compressionBomb(8L * 1024 * 1024, 1);
        assertTrue(pdf.length < 64 * 1024, "the bomb is small on disk: " + pdf.length);
        DocumentLoadException e = failure(loader(Map.of("maxStreamBytes", String.valueOf(4 * 1024 * 1024))), pdf);
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().contains("expands to more than 4.0 MB (option 'maxStreamBytes')"), e.getMessage());
    }

    @Test
    void sameCompressedStreamUnderTheLimitIsRead() {
        byte[] pdf = TestPdfs.compressionBomb(1024 * 1024, 1);
        LoadedDocument doc = load(loader(Map.of("maxStreamBytes", String.valueOf(4 * 1024 * 1024))), pdf);
        assertEquals("After the padding", doc.sections().get(0).text());
    }

    @Test
    void nestedFlateBombIsRefusedWithDefaultLimitsWithoutExpandingIt() {
        // 1 GB of content in a few kilobytes: two Flate layers. Refused at the 64 MB default, never held in memory.
        byte[] pdf = TestPdfs.compressionBomb(1024L * 1024 * 1024, 2);
        assertTrue(pdf.length < 64 * 1024, "the bomb is small on disk: " + pdf.length);
        DocumentLoadException e = failure(defaults, pdf);
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().contains("decompression bomb"), e.getMessage());
    }

    @Test
    void slowContentStreamIsAbandonedAtTheTimeout() {
        byte[] pdf = TestPdfs.manyOperators(1_000_000);
        DocumentLoadException e = failure(loader(Map.of("timeout", "50ms")), pdf);
        assertEquals(Reason.TIMEOUT, e.reason());
        assertTrue(e.getMessage().contains("took longer than 50 ms"), e.getMessage());
    }
}
