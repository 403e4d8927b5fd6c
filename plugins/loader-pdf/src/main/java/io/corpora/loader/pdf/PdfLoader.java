package io.corpora.loader.pdf;

import io.corpora.loader.common.Deadline;
import io.corpora.loader.common.LoadFailures;
import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pdfbox.Loader;
import org.apache.pdfbox.io.MemoryUsageSetting;
import org.apache.pdfbox.io.RandomAccessReadBuffer;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDDocumentInformation;
import org.apache.pdfbox.pdmodel.encryption.InvalidPasswordException;

/**
 * Loads a PDF as one {@link Section} per page that has text, each with metadata {@code page} (1-based), so chunks
 * can cite their page. Order of checks, cheapest first: byte size, password, extraction permission, page count,
 * decoded stream sizes, damaged (cut-off) text streams, then extraction under the deadline. Any failure is a {@link DocumentLoadException}; a
 * page that cannot be read fails the whole document rather than leaving a silent gap.
 */
final class PdfLoader implements DocumentLoader {

    /** Info-dictionary fields longer than this are not copied to metadata (they are not text to search). */
    private static final int MAX_INFO_FIELD_CHARS = 1000;

    private final LoaderLimits limits;
    private final int maxPages;
    private final long maxStreamBytes;
    private final StreamSizeGuard streamSizeGuard;

    PdfLoader(LoaderLimits limits, int maxPages, long maxStreamBytes) {
        this.limits = limits;
        this.maxPages = maxPages;
        this.maxStreamBytes = maxStreamBytes;
        this.streamSizeGuard = new StreamSizeGuard(maxStreamBytes);
    }

    @Override
    public LoadedDocument load(LoadRequest upload) {
        LoaderLimits.Admitted admitted = limits.admit(upload);
        LoadRequest request = admitted.request();
        Deadline deadline = admitted.deadline();
        String fileName = request.fileName();
        try (PDDocument document = open(request)) {
            deadline.check("opening the file");
            if (document.isEncrypted() && !document.getCurrentAccessPermission().canExtractContent()) {
                throw new DocumentLoadException(Reason.ENCRYPTED, "'" + fileName + "' is encrypted and its permissions "
                        + "forbid text extraction; upload a copy saved without encryption");
            }
            int pageCount = document.getNumberOfPages();
            if (pageCount > maxPages) {
                throw new DocumentLoadException(Reason.TOO_LARGE, "'" + fileName + "' has " + pageCount
                        + " pages; this loader accepts at most " + maxPages + " (option 'maxPages'). Split the PDF.");
            }
            streamSizeGuard.check(document.getDocument(), fileName, deadline);
            TruncatedTextCheck.check(document, fileName, deadline);
            List<Section> sections = new ArrayList<>();
            for (PageTextCollector.PageText page : new PageTextCollector(deadline, maxPages, fileName).collect(document)) {
                String text = page.text().strip();
                if (!text.isEmpty()) {
                    sections.add(new Section(text, Map.of("page", page.number())));
                }
            }
            if (sections.isEmpty()) {
                throw LoadFailures.noText(fileName, "its " + pageCount + " page(s) hold no extractable text. "
                        + "Scanned PDFs need OCR, which this loader does not do");
            }
            PDDocumentInformation info = document.getDocumentInformation();
            String title = infoField(info.getTitle());
            return new LoadedDocument(ContentFormat.PROSE, title, sections, documentMetadata(info, pageCount));
        } catch (InvalidPasswordException e) {
            throw new DocumentLoadException(Reason.ENCRYPTED, "'" + fileName + "' is password-protected; "
                    + "upload a copy saved without a password", e);
        } catch (IOException e) {
            throw malformed(fileName, e);
        } catch (DocumentLoadException e) {
            throw e;
        } catch (RuntimeException | StackOverflowError e) {
            // PDFBox throws unchecked exceptions (class casts, bad indexes, deep recursion) on some corrupt files.
            throw malformed(fileName, e);
        }
    }

    private PDDocument open(LoadRequest request) throws IOException {
        // Scratch memory for streams PDFBox creates is capped like the decoded streams it reads.
        return Loader.loadPDF(new RandomAccessReadBuffer(request.bytes()), "", null, null,
                MemoryUsageSetting.setupMainMemoryOnly(maxStreamBytes).streamCache);
    }

    private static DocumentLoadException malformed(String fileName, Throwable cause) {
        String detail = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        if (detail.length() > 200) {
            detail = detail.substring(0, 200) + "…";
        }
        return new DocumentLoadException(Reason.MALFORMED, "'" + fileName + "' is not a readable PDF (" + detail
                + "); it may be truncated or corrupt. Re-export or re-download it.", cause);
    }

    private static Map<String, Object> documentMetadata(PDDocumentInformation info, int pageCount) {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("pages", pageCount);
        putIfPresent(metadata, "author", info.getAuthor());
        putIfPresent(metadata, "subject", info.getSubject());
        putIfPresent(metadata, "keywords", info.getKeywords());
        return metadata;
    }

    private static void putIfPresent(Map<String, Object> metadata, String key, String value) {
        String field = infoField(value);
        if (field != null) {
            metadata.put(key, field);
        }
    }

    private static String infoField(String value) {
        if (value == null || value.isBlank() || value.length() > MAX_INFO_FIELD_CHARS) {
            return null;
        }
        return value.strip();
    }
}
