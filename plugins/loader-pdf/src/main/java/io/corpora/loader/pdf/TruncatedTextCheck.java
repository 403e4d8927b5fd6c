package io.corpora.loader.pdf;

import io.corpora.loader.common.Deadline;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.common.PDStream;
import org.apache.pdfbox.pdmodel.graphics.PDXObject;
import org.apache.pdfbox.pdmodel.graphics.form.PDFormXObject;

/**
 * PDFBox decodes a damaged Flate stream leniently: it logs a warning and returns what it could inflate, so a page
 * whose content stream was cut off yields part of its text with no error. This check inflates the Flate data of
 * every stream that carries text (page contents and the form XObjects they draw, recursively) as raw deflate and
 * refuses the document if that data ends before its final block: the text would be silently incomplete.
 * Runs after {@link StreamSizeGuard}, so each inflation is already known to be bounded.
 */
final class TruncatedTextCheck {

    private static final int MAX_FORM_DEPTH = 16;

    private TruncatedTextCheck() {}

    static void check(PDDocument document, String fileName, Deadline deadline) throws IOException {
        Set<COSStream> checked = Collections.newSetFromMap(new IdentityHashMap<>());
        int pageNumber = 0;
        for (PDPage page : document.getPages()) {
            pageNumber++;
            deadline.check("checking page " + pageNumber + " for damaged content");
            for (Iterator<PDStream> streams = page.getContentStreams(); streams.hasNext(); ) {
                requireComplete(streams.next().getCOSObject(), checked, fileName, pageNumber);
            }
            checkForms(page.getResources(), checked, fileName, pageNumber, 0);
        }
    }

    private static void checkForms(PDResources resources, Set<COSStream> checked, String fileName, int page, int depth)
            throws IOException {
        if (resources == null || depth > MAX_FORM_DEPTH) {
            return;
        }
        for (COSName name : resources.getXObjectNames()) {
            PDXObject object = resources.getXObject(name);
            if (object instanceof PDFormXObject form && !checked.contains(form.getCOSObject())) {
                requireComplete(form.getCOSObject(), checked, fileName, page);
                checkForms(form.getResources(), checked, fileName, page, depth + 1);
            }
        }
    }

    private static void requireComplete(COSStream stream, Set<COSStream> checked, String fileName, int page) throws IOException {
        if (!checked.add(stream) || !startsWithFlate(stream.getFilters())) {
            return;
        }
        try (InputStream raw = stream.createRawInputStream()) {
            if (!deflateDataIsComplete(raw)) {
                throw new DocumentLoadException(Reason.MALFORMED, "'" + fileName + "' is damaged: the compressed text of page "
                        + page + " ends before its data is complete, so part of its text would be missing. "
                        + "Re-export or re-download the PDF.");
            }
        }
    }

    private static boolean startsWithFlate(COSBase filters) {
        COSBase first = filters instanceof COSArray array && array.size() > 0 ? array.getObject(0) : filters;
        return COSName.FLATE_DECODE.equals(first) || COSName.FLATE_DECODE_ABBREVIATION.equals(first);
    }

    /**
     * Whether the zlib data reaches the end of its final deflate block. Inflated as raw deflate (after the two-byte
     * zlib header) so a missing Adler-32 trailer, which some producers omit and readers ignore, is not counted as
     * damage. Data without a recognisable zlib header is left to PDFBox.
     */
    private static boolean deflateDataIsComplete(InputStream raw) throws IOException {
        int cmf = raw.read();
        int flg = raw.read();
        boolean zlibHeader = cmf >= 0 && flg >= 0 && (cmf & 0x0F) == 8 && ((cmf << 8) | flg) % 31 == 0 && (flg & 0x20) == 0;
        if (!zlibHeader) {
            return true;
        }
        Inflater inflater = new Inflater(true);
        try {
            byte[] input = new byte[8192];
            byte[] output = new byte[64 * 1024];
            while (!inflater.finished()) {
                if (inflater.needsInput()) {
                    int read = raw.read(input);
                    if (read < 0) {
                        return false;
                    }
                    inflater.setInput(input, 0, read);
                }
                inflater.inflate(output);
            }
            return true;
        } catch (DataFormatException e) {
            return false;
        } finally {
            inflater.end();
        }
    }
}
