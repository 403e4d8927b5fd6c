package io.corpora.loader.records;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.InvalidConfigException;
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

class JsonLoaderTest {

    private final DocumentLoader loader = Loaders.create("json", Map.of());

    private static LoadedDocument load(DocumentLoader loader, String json) {
        return load(loader, json.getBytes(StandardCharsets.UTF_8));
    }

    private static LoadedDocument load(DocumentLoader loader, byte[] json) {
        return loader.load(new LoadRequest(json, "application/json", null, "products.json"));
    }

    private static DocumentLoadException failure(DocumentLoader loader, String json) {
        return assertThrows(DocumentLoadException.class, () -> load(loader, json));
    }

    @Test
    void eachArrayItemIsOneRecordRenderedAsFieldValueLines() {
        LoadedDocument doc = load(loader, """
                [
                  {"sku": "X1", "name": "Kettle", "price": 24.5, "inStock": true, "discontinued": null,
                   "tags": ["kitchen", "steel"], "size": {"h": 20, "w": 15},
                   "variants": [{"color": "red"}, {"color": "black", "codes": [1, 2]}]},
                  {"sku": "X2", "name": "Toaster"}
                ]
                """);
        assertEquals(ContentFormat.RECORDS, doc.format());
        assertEquals(List.of(
                new Section("""
                        sku: X1
                        name: Kettle
                        price: 24.5
                        inStock: true
                        tags: kitchen, steel
                        size.h: 20
                        size.w: 15
                        variants[0].color: red
                        variants[1].color: black
                        variants[1].codes: 1, 2""", Map.of("record", 1)),
                new Section("sku: X2\nname: Toaster", Map.of("record", 2))), doc.sections());
        assertEquals(2, doc.metadata().get("records"));
    }

    @Test
    void singleObjectIsOneRecordAndScalarItemsAreTheirText() {
        assertEquals("a: 1", load(loader, "{\"a\": 1}").sections().get(0).text());
        assertEquals(List.of("first", "2"), load(loader, "[\"first\", 2]").sections().stream().map(Section::text).toList());
    }

    @Test
    void emptyRecordsKeepTheirPositionInTheNumbering() {
        LoadedDocument doc = load(loader, "[{}, {\"a\": null}, {\"b\": \"x\"}]");
        assertEquals(1, doc.sections().size());
        assertEquals(3, doc.sections().get(0).metadata().get("record"));
    }

    @Test
    void configuredFieldsAreCopiedToRecordMetadataTyped() {
        DocumentLoader withFields = Loaders.create("json", Map.of("metadataFields", "sku,price,inStock,size"));
        Section section = load(withFields, "[{\"sku\": \"X1\", \"price\": 24.5, \"inStock\": true, \"qty\": 3, \"size\": {\"h\": 1}}]")
                .sections().get(0);
        assertEquals(Map.of("record", 1, "sku", "X1", "price", 24.5, "inStock", true), section.metadata());
    }

    @Test
    void unusableMetadataFieldNamesAreRefusedAtCreation() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> Loaders.create("json", Map.of("metadataFields", "ok,_tenant,has space")));
        assertEquals(2, e.problems().size(), e.getMessage());
    }

    @Test
    void syntaxErrorIsMalformedNamingLineAndColumn() {
        DocumentLoadException e = failure(loader, "[\n{\"a\": 1},\n{\"b\": }\n]");
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().startsWith("'products.json' is not valid JSON at line 3, column 7"), e.getMessage());
    }

    @Test
    void topLevelScalarAndTrailingContentAreMalformed() {
        assertTrue(failure(loader, "42").getMessage().contains("must hold a JSON array of records or a single object"));
        assertTrue(failure(loader, "[{\"a\":1}]\n[{\"b\":2}]").getMessage().contains("content after its JSON value (line 2)"));
    }

    @Test
    void truncatedJsonIsMalformed() {
        assertEquals(Reason.MALFORMED, failure(loader, "[{\"a\": 1}, {\"b\": ").reason());
    }

    @Test
    void invalidUtf8IsMalformed() {
        byte[] bytes = {'[', '"', 'a', (byte) 0xFF, '"', ']'};
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> load(loader, bytes));
        assertEquals(Reason.MALFORMED, e.reason());
        assertTrue(e.getMessage().contains("UTF-8"), e.getMessage());
    }

    @Test
    void tenMegabyteSingleLineStringIsRefusedByTheStreamingLimit() {
        String json = "[{\"body\": \"" + "x".repeat(10 * 1024 * 1024) + "\"}]";
        DocumentLoadException e = failure(loader, json);
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().startsWith("record 1 of 'products.json' exceeds a parser limit: String value length") && e.getMessage().contains("maxRecordChars"),
                e.getMessage());
    }

    @Test
    void tenMegabyteSingleLineObjectWithManyFieldsStopsAtTheRecordLimit() {
        StringBuilder json = new StringBuilder("{");
        for (int i = 0; json.length() < 10 * 1024 * 1024; i++) {
            json.append(i == 0 ? "" : ",").append("\"field").append(i).append("\":").append(i);
        }
        DocumentLoadException e = failure(loader, json.append('}').toString());
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertEquals("record 1 of 'products.json' is longer than 100000 characters (option 'maxRecordChars'); "
                + "split large records or raise the limit", e.getMessage());
    }

    @Test
    void tenMegabyteSingleLineArrayOfTinyRecordsStopsAtTheRecordCount() {
        StringBuilder json = new StringBuilder("[");
        while (json.length() < 10 * 1024 * 1024) {
            json.append("{\"a\":1},");
        }
        json.append("{\"a\":1}]");
        DocumentLoadException e = failure(loader, json.toString());
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertEquals("'products.json' has more than 100000 records (option 'maxRecords'); split it into smaller files", e.getMessage());
    }

    @Test
    void deepNestingIsRefusedCleanlyWithoutStackOverflow() {
        String json = "[" + "[".repeat(100_000) + "]".repeat(100_000) + "]";
        DocumentLoadException e = failure(loader, json);
        assertEquals(Reason.TOO_LARGE, e.reason());
        assertTrue(e.getMessage().contains("nesting"), e.getMessage());
    }

    @Test
    void slowDocumentIsAbandonedAtTheTimeout() {
        StringBuilder json = new StringBuilder("[");
        for (int i = 0; i < 300_000; i++) {
            json.append(i == 0 ? "" : ",").append("{\"n\":").append(i).append(",\"text\":\"some words here\"}");
        }
        DocumentLoader impatient = Loaders.create("json", Map.of("timeout", "1ms", "maxRecords", "1000000"));
        DocumentLoadException e = failure(impatient, json.append(']').toString());
        assertEquals(Reason.TIMEOUT, e.reason());
    }

    @Test
    void recordsCanBeSelectedByJsonPointer() {
        DocumentLoader nested = Loaders.create("json", Map.of("recordsPath", "/result/items"));
        LoadedDocument doc = load(nested, "{\"meta\": {\"page\": 1, \"items\": [0]}, \"result\": {\"count\": 2, "
                + "\"items\": [{\"a\": 1}, {\"a\": 2}]}, \"after\": [{\"b\": 3}]}");
        assertEquals(List.of("a: 1", "a: 2"), doc.sections().stream().map(Section::text).toList());
        assertEquals(Reason.MALFORMED, failure(nested, "{\"result\": {\"items\": [{\"a\": 1}]}, \"after\": }").reason(),
                "the rest of the document is still parsed");
        DocumentLoadException e = failure(nested, "{\"result\": {}}");
        assertEquals("'products.json' has no value at /result/items (option 'recordsPath')", e.getMessage());
        InvalidConfigException bad = assertThrows(InvalidConfigException.class, () -> Loaders.create("json", Map.of("recordsPath", "data")));
        assertTrue(bad.getMessage().contains("is not a JSON Pointer"), bad.getMessage());
    }

    @Test
    void emptyArrayHasNoText() {
        assertTrue(failure(loader, "[]").getMessage().contains("holds no records"));
    }
}
