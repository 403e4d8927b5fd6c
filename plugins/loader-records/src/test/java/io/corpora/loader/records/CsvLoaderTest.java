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

class CsvLoaderTest {

    private final DocumentLoader loader = Loaders.create("csv", Map.of());

    private static LoadedDocument load(DocumentLoader loader, byte[] csv, String charset) {
        return loader.load(new LoadRequest(csv, "text/csv", charset, "staff.csv"));
    }

    private LoadedDocument load(String csv) {
        return load(loader, csv.getBytes(StandardCharsets.UTF_8), null);
    }

    @Test
    void eachRowIsOneRecordWithTheHeaderAsFieldNames() {
        LoadedDocument doc = load("\uFEFFname,role,notes\nAlice,Engineer,\"Likes tea, and\nbiscuits\"\n\nBob,,On leave\n");
        assertEquals(ContentFormat.RECORDS, doc.format());
        assertEquals(List.of(
                new Section("name: Alice\nrole: Engineer\nnotes: Likes tea, and\nbiscuits", Map.of("record", 1)),
                new Section("name: Bob\nnotes: On leave", Map.of("record", 2))), doc.sections());
        assertEquals(List.of("name", "role", "notes"), doc.metadata().get("columns"));
        assertEquals(2, doc.metadata().get("records"));
    }

    @Test
    void shortRowsOmitMissingFieldsAndBlankHeadersGetAPositionName() {
        assertEquals("name: Carol\ncolumn 2: x", load("name,\nCarol,x\n").sections().get(0).text());
        assertEquals("name: Dan", load("name,role\nDan\n").sections().get(0).text());
    }

    @Test
    void rowWithMoreFieldsThanTheHeaderIsMalformedNamingTheLine() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("a,b\n1,2\n3,4,5\n"));
        assertEquals(Reason.MALFORMED, e.reason());
        assertEquals("'staff.csv' data row 2 has 3 fields but the header has 2; quote values that contain the separator ','",
                e.getMessage());
    }

    @Test
    void separatorIsConfigurable() {
        DocumentLoader semicolons = Loaders.create("csv", Map.of("separator", "semicolon"));
        assertEquals("city: Köln\nprice: 3,50", load(semicolons, "city;price\nKöln;3,50\n".getBytes(StandardCharsets.UTF_8), null)
                .sections().get(0).text());
    }

    @Test
    void declaredCharsetIsDecodedStrictly() {
        byte[] latin = "name\nJos\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
        assertEquals("name: José", load(loader, latin, "windows-1252").sections().get(0).text());
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> load(loader, new byte[] {'n', '\n', 'a', (byte) 0x81, '\n'}, "windows-1252"));
        assertEquals(Reason.MALFORMED, e.reason());
    }

    @Test
    void invalidUtf8IsMalformed() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> load(loader, new byte[] {'n', '\n', 'a', (byte) 0xC3, '(', '\n'}, null));
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void configuredColumnsBecomeRecordMetadata() {
        DocumentLoader withFields = Loaders.create("csv", Map.of("metadataFields", "dept"));
        assertEquals(Map.of("record", 1, "dept", "sales"),
                load(withFields, "name,dept\nEve,sales\n".getBytes(StandardCharsets.UTF_8), null).sections().get(0).metadata());
    }

    @Test
    void rowCountLimitIsEnforced() {
        DocumentLoader two = Loaders.create("csv", Map.of("maxRecords", "2"));
        assertEquals(2, load(two, "a\n1\n2\n".getBytes(StandardCharsets.UTF_8), null).sections().size());
        DocumentLoadException e = assertThrows(DocumentLoadException.class,
                () -> load(two, "a\n1\n2\n3\n".getBytes(StandardCharsets.UTF_8), null));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }

    @Test
    void hugeRowIsRefusedAtTheRecordLimit() {
        String row = "v,".repeat(200_000);
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("h\n" + row + "\n"));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }

    @Test
    void thousandsOfColumnsLoadWithoutColumnsMetadata() {
        StringBuilder csv = new StringBuilder();
        for (int i = 0; i < 2000; i++) {
            csv.append(i == 0 ? "" : ",").append("c").append(i);
        }
        csv.append("\nvalue\n");
        LoadedDocument doc = load(csv.toString());
        assertEquals("c0: value", doc.sections().get(0).text());
        assertEquals(Map.of("records", 1), doc.metadata());
    }

    @Test
    void headerOnlyHasNoText() {
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load("a,b\n"));
        assertTrue(e.getMessage().contains("contains no text"), e.getMessage());
    }
}
