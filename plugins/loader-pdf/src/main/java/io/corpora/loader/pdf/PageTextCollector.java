package io.corpora.loader.pdf;

import io.corpora.loader.common.Deadline;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.apache.pdfbox.contentstream.operator.Operator;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.text.PDFTextStripper;

/**
 * PDFBox's text stripper, cut at page boundaries (one string per page, in page order) and checking the deadline
 * while it interprets content-stream operators, so a page with a pathological content stream cannot run forever.
 * Not thread-safe: one instance per load.
 */
final class PageTextCollector extends PDFTextStripper {

    private static final int OPERATORS_PER_DEADLINE_CHECK = 1024;

    private final Deadline deadline;
    private final int maxPages;
    private final String fileName;
    private final StringWriter pageBuffer = new StringWriter();
    private final List<PageText> pages = new ArrayList<>();
    private long operators;

    PageTextCollector(Deadline deadline, int maxPages, String fileName) {
        this.deadline = deadline;
        this.maxPages = maxPages;
        this.fileName = fileName;
        setLineSeparator("\n");
        setPageStart("");
        setPageEnd("");
    }

    /** The text of one page; {@code number} is 1-based. */
    record PageText(int number, String text) {}

    /** The text of every page that has content, in page order (pages without a content stream are absent). */
    List<PageText> collect(PDDocument document) throws IOException {
        writeText(document, pageBuffer);
        return List.copyOf(pages);
    }

    @Override
    protected void startPage(PDPage page) throws IOException {
        deadline.check("reading page " + getCurrentPageNo());
        if (getCurrentPageNo() > maxPages) {
            // The page count checked up front is the tree's declared /Count, which a crafted file can understate.
            throw new DocumentLoadException(Reason.TOO_LARGE, "'" + fileName + "' has more than " + maxPages
                    + " pages (its page tree understates the count); this loader accepts at most " + maxPages
                    + " (option 'maxPages')");
        }
        pageBuffer.getBuffer().setLength(0);
        super.startPage(page);
    }

    @Override
    protected void endPage(PDPage page) throws IOException {
        super.endPage(page);
        pages.add(new PageText(getCurrentPageNo(), pageBuffer.toString()));
        pageBuffer.getBuffer().setLength(0);
    }

    @Override
    protected void processOperator(Operator operator, List<COSBase> operands) throws IOException {
        if (++operators % OPERATORS_PER_DEADLINE_CHECK == 0) {
            deadline.check("reading page " + getCurrentPageNo());
        }
        super.processOperator(operator, operands);
    }
}
