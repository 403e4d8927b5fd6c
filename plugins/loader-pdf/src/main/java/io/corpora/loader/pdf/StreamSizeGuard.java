package io.corpora.loader.pdf;

import io.corpora.loader.common.ByteSizes;
import io.corpora.loader.common.Deadline;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSBase;
import org.apache.pdfbox.cos.COSDocument;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSObjectKey;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.filter.Filter;
import org.apache.pdfbox.filter.FilterFactory;

/**
 * Decompression-bomb guard. PDFBox decodes a stream completely into memory before parsing it, so a few
 * kilobytes of Flate data can demand gigabytes. Before any text is extracted, every stream stored at the top
 * level of the file is decoded once through its general-purpose filters into a counting sink that stops at
 * {@code maxStreamBytes}; nothing is kept, so the check itself needs almost no memory.
 *
 * <p>Image streams are skipped: text extraction never decodes them. Streams whose filter chain includes an image
 * codec (DCT, JPX, JBIG2, CCITT) are measured only up to that codec, for the same reason.
 */
final class StreamSizeGuard {

    private static final Logger LOG = Logger.getLogger(StreamSizeGuard.class.getName());

    /** Filters that expand general bytes; all others are image codecs text extraction does not run. */
    private static final Set<COSName> BYTE_FILTERS = Set.of(
            COSName.FLATE_DECODE, COSName.FLATE_DECODE_ABBREVIATION,
            COSName.LZW_DECODE, COSName.LZW_DECODE_ABBREVIATION,
            COSName.RUN_LENGTH_DECODE, COSName.RUN_LENGTH_DECODE_ABBREVIATION,
            COSName.ASCII_HEX_DECODE, COSName.ASCII_HEX_DECODE_ABBREVIATION,
            COSName.ASCII85_DECODE, COSName.ASCII85_DECODE_ABBREVIATION);

    /** Thrown from inside a PDFBox filter's write loop to stop decoding at the limit. */
    private static final class LimitReached extends RuntimeException {
        private static final long serialVersionUID = 1L;

        LimitReached() {
            super(null, null, false, false);
        }
    }

    private final long maxStreamBytes;

    StreamSizeGuard(long maxStreamBytes) {
        this.maxStreamBytes = maxStreamBytes;
    }

    void check(COSDocument document, String fileName, Deadline deadline) throws IOException {
        List<Map.Entry<COSObjectKey, Long>> entries = new ArrayList<>(document.getXrefTable().entrySet());
        for (Map.Entry<COSObjectKey, Long> entry : entries) {
            Long offset = entry.getValue();
            if (offset == null || offset <= 0) {
                continue; // stored inside an object stream (negative offset): streams never are
            }
            deadline.check("checking the decoded size of compressed streams");
            COSBase object = document.getObjectFromPool(entry.getKey()).getObject();
            if (object instanceof COSStream stream && !COSName.IMAGE.equals(stream.getCOSName(COSName.SUBTYPE))) {
                measure(stream, entry.getKey(), fileName, deadline);
            }
        }
    }

    private void measure(COSStream stream, COSObjectKey key, String fileName, Deadline deadline) throws IOException {
        List<COSName> filters = byteFilters(stream.getFilters());
        if (filters.isEmpty()) {
            return; // stored as is: its size is bounded by the file size
        }
        try (InputStream raw = stream.createRawInputStream()) {
            InputStream input = raw;
            for (int i = 0; i < filters.size(); i++) {
                Filter filter = FilterFactory.INSTANCE.getFilter(filters.get(i));
                boolean last = i == filters.size() - 1;
                // Intermediate stages of a filter chain are kept (bounded by the limit); the last is only counted.
                ByteArrayOutputStream intermediate = last ? null : new ByteArrayOutputStream();
                filter.decode(input, new LimitedSink(intermediate, deadline), stream, i);
                if (!last) {
                    input = new ByteArrayInputStream(intermediate.toByteArray());
                }
            }
        } catch (LimitReached e) {
            throw new DocumentLoadException(Reason.TOO_LARGE, "'" + fileName + "' holds a compressed stream (object "
                    + key.getNumber() + ") that expands to more than " + ByteSizes.format(maxStreamBytes)
                    + " (option 'maxStreamBytes'); it looks like a decompression bomb and was not read");
        } catch (IOException e) {
            // A stream that does not decode is judged by the extraction that needs it; this guard is about size.
            LOG.log(Level.FINE, "object " + key.getNumber() + " of " + fileName + " did not decode while measuring", e);
        }
    }

    private static List<COSName> byteFilters(COSBase filters) {
        List<COSName> names = new ArrayList<>();
        if (filters instanceof COSName name) {
            names.add(name);
        } else if (filters instanceof COSArray array) {
            for (int i = 0; i < array.size(); i++) {
                if (array.getObject(i) instanceof COSName name) {
                    names.add(name);
                }
            }
        }
        List<COSName> measured = new ArrayList<>();
        for (COSName name : names) {
            if (!BYTE_FILTERS.contains(name)) {
                break;
            }
            measured.add(name);
        }
        return measured;
    }

    /** Counts (and optionally keeps) decoded bytes; stops the decoder at the limit or when time is up. */
    private final class LimitedSink extends OutputStream {
        private static final long DEADLINE_CHECK_EVERY = 4L * 1024 * 1024;
        private final ByteArrayOutputStream keep;
        private final Deadline deadline;
        private long written;
        private long nextDeadlineCheck = DEADLINE_CHECK_EVERY;

        LimitedSink(ByteArrayOutputStream keep, Deadline deadline) {
            this.keep = keep;
            this.deadline = deadline;
        }

        @Override
        public void write(int b) {
            count(1);
            if (keep != null) {
                keep.write(b);
            }
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            count(length);
            if (keep != null) {
                keep.write(bytes, offset, length);
            }
        }

        private void count(int length) {
            written += length;
            if (written > maxStreamBytes) {
                throw new LimitReached();
            }
            if (written >= nextDeadlineCheck) {
                nextDeadlineCheck += DEADLINE_CHECK_EVERY;
                deadline.check("checking the decoded size of compressed streams");
            }
        }
    }
}
