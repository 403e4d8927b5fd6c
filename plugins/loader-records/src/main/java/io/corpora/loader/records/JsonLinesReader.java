package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.corpora.spi.loader.LoadRequest;
import java.io.IOException;
import java.util.Map;

/** JSON Lines: one JSON value per line, one record each; the record's metadata also carries its {@code line}. */
final class JsonLinesReader implements RecordReader {

    private final JsonFactory factory;
    private final JsonRecordRenderer renderer;

    JsonLinesReader(JsonFactory factory, JsonRecordRenderer renderer) {
        this.factory = factory;
        this.renderer = renderer;
    }

    @Override
    public String formatName() {
        return "JSON Lines";
    }

    @Override
    public Map<String, Object> read(LoadRequest request, RecordSink sink) throws IOException {
        try (JsonParser parser = Parsers.open(factory, request)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                int line = parser.currentTokenLocation().getLineNr();
                RecordText text = sink.startRecord();
                Map<String, Object> fields = renderer.render(parser, text);
                sink.endRecord(text, fields, Map.of("line", line));
            }
        }
        return Map.of();
    }
}
