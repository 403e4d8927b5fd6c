package io.corpora.loader.records;

import io.corpora.spi.loader.LoadRequest;
import java.io.IOException;
import java.util.Map;

/** Reads one record format, rendering each record into the sink as it streams past. */
interface RecordReader {

    /** The format's name in messages, e.g. "JSON". */
    String formatName();

    /**
     * Streams every record of the request into the sink.
     *
     * @return document-level metadata the format provides (e.g. CSV column names)
     */
    Map<String, Object> read(LoadRequest request, RecordSink sink) throws IOException;
}
