package {{package}};

import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A starting point: strict UTF-8 text whose paragraphs (separated by blank lines) become sections; the first line is
 * the title. Replace {@link #load} with your format's parser. Malformed input is a typed {@link DocumentLoadException},
 * never another exception; metadata keys starting with {@code _} are Corpora's own and must not be emitted.
 */
final class {{Class}}DocumentLoader implements DocumentLoader {

    private final long maxBytes;
    private final Duration timeout;

    {{Class}}DocumentLoader(long maxBytes, Duration timeout) {
        this.maxBytes = maxBytes;
        this.timeout = timeout;
    }

    @Override
    public LoadedDocument load(LoadRequest request) throws DocumentLoadException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (request.bytes().length > maxBytes) {
            throw new DocumentLoadException(DocumentLoadException.Reason.TOO_LARGE,
                    request.fileName() + " has " + request.bytes().length + " bytes; this loader reads at most " + maxBytes);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(request.bytes())).toString();
        } catch (CharacterCodingException e) {
            throw new DocumentLoadException(DocumentLoadException.Reason.MALFORMED, request.fileName() + " is not valid UTF-8", e);
        }
        List<Section> sections = new ArrayList<>();
        for (String paragraph : text.split("\\R\\s*\\R")) {
            if (System.nanoTime() > deadline) { // check the deadline in every loop over the input
                throw new DocumentLoadException(DocumentLoadException.Reason.TIMEOUT,
                        request.fileName() + " took longer than " + timeout + " to load");
            }
            if (!paragraph.isBlank()) {
                sections.add(Section.of(paragraph.strip()));
            }
        }
        String title = sections.isEmpty() ? null : sections.get(0).text().lines().findFirst().orElse(null);
        return new LoadedDocument(ContentFormat.PROSE, title, sections, Map.of());
    }
}
