package io.corpora.loader.records;

import io.corpora.loader.common.Deadline;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.Section;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects rendered records as sections, numbering them by position (1-based, empty records count, so
 * {@code record: 7} always points at the seventh item in the file) and enforcing the record count and the deadline.
 */
final class RecordSink {

    private final RecordLoaderOptions options;
    private final Deadline deadline;
    private final String fileName;
    private final List<Section> sections = new ArrayList<>();
    private int position;

    RecordSink(RecordLoaderOptions options, Deadline deadline, String fileName) {
        this.options = options;
        this.deadline = deadline;
        this.fileName = fileName;
    }

    /** The number the next record will get; readers use it in messages. */
    int nextNumber() {
        return position + 1;
    }

    /** A fresh text builder for the next record, checking the count and the clock first. */
    RecordText startRecord() {
        if (position >= options.maxRecords()) {
            throw new DocumentLoadException(Reason.TOO_LARGE, "'" + fileName + "' has more than " + options.maxRecords()
                    + " records (option 'maxRecords'); split it into smaller files");
        }
        deadline.check("reading record " + nextNumber());
        return new RecordText(options.maxRecordChars());
    }

    /** Adds the record just built; {@code extra} is format-specific metadata such as a line number. */
    void endRecord(RecordText text, Map<String, Object> fieldMetadata, Map<String, Object> extra) {
        position++;
        if (text.isBlank()) {
            return; // an empty record ({} or a blank row) has nothing to index, but keeps its number
        }
        Map<String, Object> metadata = new LinkedHashMap<>(fieldMetadata);
        metadata.put("record", position);
        metadata.putAll(extra);
        try {
            sections.add(new Section(text.build(), metadata));
        } catch (IllegalArgumentException e) {
            throw new DocumentLoadException(Reason.MALFORMED,
                    "record " + position + " of '" + fileName + "' has a metadata field that cannot be stored: " + e.getMessage(), e);
        }
    }

    int maxRecordChars() {
        return options.maxRecordChars();
    }

    int recordCount() {
        return position;
    }

    List<Section> sections() {
        return sections;
    }
}
