package io.corpora.loader.records;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.dataformat.csv.CsvFactory;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.LoadRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * Jackson factories configured with this loader's limits ({@link StreamReadConstraints}), and parsers over a
 * request's bytes: bytes go straight to Jackson (it detects UTF-8/16/32 and refuses invalid UTF-8), a declared
 * non-UTF-8 charset is decoded strictly (malformed input is an error, never replacement characters).
 */
final class Parsers {

    /** Deep enough for real data, shallow enough that no structure is a stack or memory risk. */
    static final int MAX_NESTING_DEPTH = 64;
    static final int MAX_NAME_LENGTH = 1024;

    private Parsers() {}

    static StreamReadConstraints constraints(RecordLoaderOptions options) {
        return StreamReadConstraints.builder()
                .maxDocumentLength(options.limits().maxBytes())
                .maxStringLength(options.maxRecordChars())
                .maxNameLength(MAX_NAME_LENGTH)
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .build();
    }

    static JsonFactory jsonFactory(RecordLoaderOptions options) {
        return JsonFactory.builder().streamReadConstraints(constraints(options)).build();
    }

    static CsvFactory csvFactory(RecordLoaderOptions options) {
        return CsvFactory.builder().streamReadConstraints(constraints(options))
                .enable(CsvParser.Feature.SKIP_EMPTY_LINES).build();
    }

    static JsonParser open(JsonFactory factory, LoadRequest request) throws IOException {
        Charset declared = declaredCharset(request);
        if (declared == null || isUnicode(declared)) {
            return factory.createParser(request.bytes());
        }
        Reader reader = new InputStreamReader(new ByteArrayInputStream(request.bytes()), declared.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT));
        return factory.createParser(reader);
    }

    private static boolean isUnicode(Charset charset) {
        return charset.equals(StandardCharsets.UTF_8) || charset.name().startsWith("UTF-16") || charset.name().startsWith("UTF-32");
    }

    private static Charset declaredCharset(LoadRequest request) {
        if (request.charset() == null || request.charset().isBlank()) {
            return null;
        }
        try {
            return Charset.forName(request.charset().trim());
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new DocumentLoadException(Reason.UNSUPPORTED, "'" + request.fileName() + "' declares charset '"
                    + request.charset() + "', which this server does not know; use UTF-8");
        }
    }
}
