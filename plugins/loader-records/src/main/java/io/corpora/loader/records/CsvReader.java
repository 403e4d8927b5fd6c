package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.corpora.spi.Metadata;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.LoadRequest;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CSV with a header row: each following row is one record rendered as {@code header: value} lines (empty values
 * left out). A row with more fields than the header is an error naming the row, never a silent misalignment.
 */
final class CsvReader implements RecordReader {

    private static final int MAX_COLUMN_NAME_IN_METADATA = 200;

    private final CsvFactory factory;
    private final char separator;
    private final Set<String> metadataFields;

    CsvReader(CsvFactory factory, char separator, Set<String> metadataFields) {
        this.factory = factory;
        this.separator = separator;
        this.metadataFields = metadataFields;
    }

    @Override
    public String formatName() {
        return "CSV";
    }

    @Override
    public Map<String, Object> read(LoadRequest request, RecordSink sink) throws IOException {
        try (CsvParser parser = (CsvParser) Parsers.open(factory, request)) {
            parser.setSchema(CsvSchema.emptySchema().withColumnSeparator(separator));
            Row headerRow = readRow(parser, sink.maxRecordChars());
            if (headerRow == null) {
                return Map.of();
            }
            List<String> header = headerNames(headerRow.values());
            for (Row row = readRow(parser, sink.maxRecordChars()); row != null; row = readRow(parser, sink.maxRecordChars())) {
                if (row.values().stream().allMatch(String::isBlank)) {
                    continue; // a blank line is not a record and does not take a record number
                }
                if (row.values().size() > header.size()) {
                    throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' data row " + sink.nextNumber() + " has "
                            + row.values().size() + " fields but the header has " + header.size()
                            + "; quote values that contain the separator '" + separator + "'");
                }
                RecordText text = sink.startRecord();
                Map<String, Object> fields = new LinkedHashMap<>();
                for (int i = 0; i < row.values().size(); i++) {
                    String value = row.values().get(i);
                    if (value.isBlank()) {
                        continue;
                    }
                    text.field(header.get(i), value);
                    if (metadataFields.contains(header.get(i))) {
                        fields.put(header.get(i), value);
                    }
                }
                sink.endRecord(text, fields, Map.of());
            }
            return columnsMetadata(header);
        }
    }

    /** One CSV row. (Its line is not tracked: the parser's line numbers skip quoted line breaks and blank lines.) */
    private record Row(List<String> values) {}

    /** The next row, or null at the end; a row's total size is bounded like a rendered record. */
    private static Row readRow(CsvParser parser, int maxChars) throws IOException {
        JsonToken token = parser.nextToken();
        if (token == null) {
            return null;
        }
        if (token != JsonToken.START_ARRAY) {
            throw new IOException("unexpected CSV token " + token);
        }
        List<String> values = new ArrayList<>();
        RecordText budget = new RecordText(maxChars);
        for (token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            String value = parser.getText();
            budget.listItem(value);
            values.add(value);
        }
        return new Row(values);
    }

    /** The column names as document metadata, when metadata can hold them (at most 1024 short names). */
    private static Map<String, Object> columnsMetadata(List<String> header) {
        boolean fits = header.size() <= Metadata.MAX_LIST_SIZE
                && header.stream().allMatch(name -> name.length() <= MAX_COLUMN_NAME_IN_METADATA);
        return fits ? Map.of("columns", List.copyOf(header)) : Map.of();
    }

    private static List<String> headerNames(List<String> raw) {
        List<String> names = new ArrayList<>(raw.size());
        for (int i = 0; i < raw.size(); i++) {
            String name = raw.get(i).replace("\uFEFF", "").replace('\n', ' ').replace('\r', ' ').strip();
            names.add(name.isEmpty() ? "column " + (i + 1) : name);
        }
        return names;
    }
}
