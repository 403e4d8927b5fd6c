package io.corpora.loader.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import io.corpora.testkit.Loaders;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonLinesLoaderTest {

    private final DocumentLoader loader = Loaders.create("jsonl", Map.of());

    private LoadedDocument load(String jsonl) {
        return loader.load(new LoadRequest(jsonl.getBytes(StandardCharsets.UTF_8), "application/x-ndjson", null, "events.jsonl"));
    }

    @Test
    void eachLineIsOneRecordCarryingItsLineNumber() {
        LoadedDocument doc = load("{\"_id\": \"d1\", \"title\": \"Alpha\"}\n\n{\"_id\": \"d2\", \"text\": \"Beta\"}\n\"plain\"\n");
        assertEquals(ContentFormat.RECORDS, doc.format());
        assertEquals(List.of(
                new Section("_id: d1\ntitle: Alpha", Map.of("record", 1, "line", 1)),
                new Section("_id: d2\ntext: Beta", Map.of("record", 2, "line", 3)),
                new Section("plain", Map.of("record", 3, "line", 4))), doc.sections());
    }

    @Test
    void badLineIsMalformedNamingTheLine() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("{\"a\": 1}\n{\"b\": 2}\n{\"c\": tru}\n"));
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().startsWith("'events.jsonl' is not valid JSON Lines at line 3"), e.getMessage());
    }

    @Test
    void tenMegabyteSingleLineIsRefusedNotBuffered() {
        String line = "{\"text\": \"" + "y".repeat(10 * 1024 * 1024) + "\"}\n";
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("{\"ok\": 1}\n" + line));
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().startsWith("record 2 of 'events.jsonl' exceeds a parser limit"), e.getMessage());
    }
}
