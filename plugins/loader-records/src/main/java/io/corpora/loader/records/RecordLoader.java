package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import io.corpora.loader.common.Deadline;
import io.corpora.loader.common.LoaderLimits;
import io.corpora.loader.common.LoadFailures;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import java.io.CharConversionException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Loads a record file as {@link ContentFormat#RECORDS}: one section per record with metadata {@code record}
 * (1-based position). Parser errors become {@link DocumentLoadException}s naming the line and column; limits
 * (bytes, records, record size, string length, nesting, time) are checked while streaming, so no input, however
 * shaped, is held in memory beyond them.
 */
final class RecordLoader implements DocumentLoader {

    private final RecordReader reader;
    private final RecordLoaderOptions options;

    RecordLoader(RecordReader reader, RecordLoaderOptions options) {
        this.reader = reader;
        this.options = options;
    }

    @Override
    public LoadedDocument load(LoadRequest upload) {
        LoaderLimits.Admitted admitted = options.limits().admit(upload);
        LoadRequest request = admitted.request();
        Deadline deadline = admitted.deadline();
        RecordSink sink = new RecordSink(options, deadline, request.fileName());
        Map<String, Object> formatMetadata;
        try {
            formatMetadata = reader.read(request, sink);
        } catch (RecordText.TooLarge e) {
            throw new DocumentLoadException(Reason.TOO_LARGE, "record " + sink.nextNumber() + " of '" + request.fileName()
                    + "' is longer than " + options.maxRecordChars() + " characters (option 'maxRecordChars'); "
                    + "split large records or raise the limit");
        } catch (StreamConstraintsException e) {
            // Constraint failures carry no location; the record number says where.
            throw new DocumentLoadException(Reason.TOO_LARGE, "record " + sink.nextNumber() + " of '" + request.fileName()
                    + "' exceeds a parser limit: " + e.getOriginalMessage() + ". String values are limited by option "
                    + "'maxRecordChars', nesting to " + Parsers.MAX_NESTING_DEPTH + " levels", e);
        } catch (JsonProcessingException e) {
            throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' is not valid " + reader.formatName()
                    + " at " + where(e.getLocation()) + ": " + e.getOriginalMessage(), e);
        } catch (CharConversionException | CharacterCodingException e) {
            throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' is not valid "
                    + (request.charset() == null ? "UTF-8" : request.charset()) + " text (" + e.getMessage()
                    + "); declare the file's real charset", e);
        } catch (IOException e) {
            throw new DocumentLoadException(Reason.MALFORMED, "'" + request.fileName() + "' could not be read as "
                    + reader.formatName() + ": " + e.getMessage(), e);
        }
        if (sink.sections().isEmpty()) {
            throw LoadFailures.noText(request.fileName(), sink.recordCount() == 0 ? "it holds no records" : "all its records are empty");
        }
        Map<String, Object> metadata = new LinkedHashMap<>(formatMetadata);
        metadata.put("records", sink.recordCount());
        return new LoadedDocument(ContentFormat.RECORDS, null, sink.sections(), metadata);
    }

    private static String where(JsonLocation location) {
        return location == null ? "an unknown position" : "line " + location.getLineNr() + ", column " + location.getColumnNr();
    }
}
