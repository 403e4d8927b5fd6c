package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.filter.FilteringParserDelegate;
import com.fasterxml.jackson.core.filter.JsonPointerBasedFilter;
import com.fasterxml.jackson.core.filter.TokenFilter;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.LoadRequest;
import java.io.IOException;
import java.util.Map;

/**
 * A JSON document: an array (one record per item) or a single object (one record), at the top level or at a
 * configured JSON Pointer (e.g. {@code /data} for {@code {"data": [...]}}), selected while streaming.
 */
final class JsonArrayReader implements RecordReader {

    private final JsonFactory factory;
    private final JsonRecordRenderer renderer;
    private final JsonPointer recordsPath;

    /** @param recordsPath where the records are; {@link JsonPointer#empty()} for the top level */
    JsonArrayReader(JsonFactory factory, JsonRecordRenderer renderer, JsonPointer recordsPath) {
        this.factory = factory;
        this.renderer = renderer;
        this.recordsPath = recordsPath;
    }

    @Override
    public String formatName() {
        return "JSON";
    }

    @Override
    public Map<String, Object> read(LoadRequest request, RecordSink sink) throws IOException {
        try (JsonParser parser = select(Parsers.open(factory, request))) {
            JsonToken first = parser.nextToken();
            if (first == null && !recordsPath.matches()) {
                throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' has no value at "
                        + recordsPath + " (option 'recordsPath')");
            }
            if (first == JsonToken.START_ARRAY) {
                for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
                    readRecord(parser, sink);
                }
            } else if (first == JsonToken.START_OBJECT) {
                readRecord(parser, sink);
            } else if (first != null) {
                throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName()
                        + "' must hold a JSON array of records or a single object, but it holds a " + describe(first));
            }
            if (parser.nextToken() != null) {
                throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' has content after its JSON "
                        + "value (line " + parser.currentTokenLocation().getLineNr() + "); for one record per line use JSONL");
            }
        }
        return Map.of();
    }

    private JsonParser select(JsonParser parser) {
        if (recordsPath.matches()) {
            return parser;
        }
        // Streams only the selected value; the rest of the document is skipped token by token, never buffered.
        return new FilteringParserDelegate(parser, new JsonPointerBasedFilter(recordsPath), TokenFilter.Inclusion.ONLY_INCLUDE_ALL,
                false);
    }

    private void readRecord(JsonParser parser, RecordSink sink) throws IOException {
        RecordText text = sink.startRecord();
        Map<String, Object> fields = renderer.render(parser, text);
        sink.endRecord(text, fields, Map.of());
    }

    private static String describe(JsonToken token) {
        return token.isScalarValue() ? "single " + token.name().toLowerCase().replace("value_", "") + " value" : token.name();
    }
}
