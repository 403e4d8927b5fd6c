package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChunkersTest {

    private final Chunkers chunkers = new Chunkers(ChunkingOptions.of(120, 20));

    @Test
    void theFormatSelectsTheChunker() {
        assertInstanceOf(ProseChunker.class, chunkers.forFormat(ContentFormat.PROSE));
        assertInstanceOf(MarkdownChunker.class, chunkers.forFormat(ContentFormat.MARKDOWN));
        assertInstanceOf(RecordChunker.class, chunkers.forFormat(ContentFormat.RECORDS));
    }

    @Test
    void idsDeriveFromDocumentIdAndPositionAndAreStableAcrossRuns() {
        LoadedDocument document = LoadedDocument.prose("Sentence one is here. ".repeat(30));
        List<Chunk> first = chunkers.chunk("doc-1", document);
        List<Chunk> again = chunkers.chunk("doc-1", document);
        assertTrue(first.size() > 2);
        assertEquals(first, again);
        for (int i = 0; i < first.size(); i++) {
            assertEquals("doc-1:" + i, first.get(i).id());
            assertEquals(i, first.get(i).index());
            assertEquals("doc-1", first.get(i).documentId());
        }
        assertNotEquals(ChunkIds.of("a:1", 0), ChunkIds.of("a", 10));
    }

    @Test
    void chunksNeverSpanSectionsAndInheritSectionMetadata() {
        LoadedDocument pdf = new LoadedDocument(ContentFormat.PROSE, "Report",
                List.of(new Section("Page one ends mid", Map.of("page", 1)), new Section("thought on page two.", Map.of("page", 2))),
                Map.of("lang", "en"));
        List<Chunk> chunks = chunkers.chunk("report", pdf);
        assertEquals(2, chunks.size());
        assertEquals("Page one ends mid", chunks.get(0).text());
        assertEquals(1, chunks.get(0).metadata().get("page"));
        assertEquals(2, chunks.get(1).metadata().get("page"));
        assertEquals("en", chunks.get(1).metadata().get("lang"));
        assertEquals("Report", chunks.get(1).metadata().get("title"));
    }

    @Test
    void sectionMetadataOverridesDocumentMetadata() {
        LoadedDocument document = new LoadedDocument(ContentFormat.PROSE, null,
                List.of(new Section("text", Map.of("lang", "de"))), Map.of("lang", "en"));
        assertEquals("de", chunkers.chunk("d", document).get(0).metadata().get("lang"));
    }

    @Test
    void recordsAreOneChunkEachAndOversizedOnesAreSplitAndFlagged() {
        String big = "field: " + "long value ".repeat(30);
        LoadedDocument rows = new LoadedDocument(ContentFormat.RECORDS, null,
                List.of(new Section("name: Ada, role: engineer", Map.of("row", 1)), new Section("  ", Map.of("row", 2)),
                        new Section("name: Bob, role: analyst", Map.of("row", 3)), new Section(big, Map.of("row", 4))),
                Map.of());
        List<Chunk> chunks = chunkers.chunk("people.csv", rows);
        assertEquals("name: Ada, role: engineer", chunks.get(0).text());
        assertEquals(1, chunks.get(0).metadata().get("row"));
        assertEquals("name: Bob, role: analyst", chunks.get(1).text());
        assertFalse(chunks.get(1).metadata().containsKey(ChunkFactory.OVERSIZED_RECORD_KEY));
        List<Chunk> pieces = chunks.subList(2, chunks.size());
        assertTrue(pieces.size() >= 3);
        pieces.forEach(p -> {
            assertEquals(true, p.metadata().get(ChunkFactory.OVERSIZED_RECORD_KEY));
            assertEquals(4, p.metadata().get("row"));
            assertTrue(p.text().length() <= 120);
        });
    }

    @Test
    void separatorModePacksWholeRecordsAndDropsEmptyOnes() {
        String jsonl = "{\"a\":1}\n\n{\"b\":2}\n{\"c\":3}\n   \n{\"d\":4}\n";
        Chunkers small = new Chunkers(ChunkingOptions.of(20, 0).withSeparator("\n"));
        List<String> texts = small.chunk("lines", LoadedDocument.prose(jsonl)).stream().map(Chunk::text).toList();
        assertEquals(List.of("{\"a\":1}\n{\"b\":2}", "{\"c\":3}\n{\"d\":4}"), texts);
    }

    @Test
    void separatorModeSplitsARecordLargerThanTheWindowByTheProseRuleAndFlagsIt() {
        String text = "short one---" + "word ".repeat(40) + "---last";
        Chunkers small = new Chunkers(ChunkingOptions.of(50, 10).withSeparator("---"));
        List<Chunk> chunks = small.chunk("d", LoadedDocument.prose(text));
        assertEquals("short one", chunks.get(0).text());
        assertEquals("last", chunks.get(chunks.size() - 1).text());
        List<Chunk> middle = chunks.subList(1, chunks.size() - 1);
        assertTrue(middle.size() >= 4);
        middle.forEach(c -> assertEquals(true, c.metadata().get(ChunkFactory.OVERSIZED_RECORD_KEY)));
    }

    @Test
    void tokenAwareSizingShrinksChunksToTheModelLimit() {
        // many short words: 300 characters is ~100 words, far above a 20-token limit
        String text = "a b c. ".repeat(200);
        ChunkingOptions options = ChunkingOptions.of(300, 30).withTokenLimit(WhitespaceTokens::count, 20);
        List<Chunk> chunks = new Chunkers(options).chunk("t", LoadedDocument.prose(text));
        assertTrue(chunks.size() > 20);
        chunks.forEach(c -> assertTrue(WhitespaceTokens.count(c.text()) <= 20, c.text()));
    }

    @Test
    void recordPackingRespectsTheTokenLimitToo() {
        ChunkingOptions options = ChunkingOptions.of(1_000, 0).withSeparator("\n").withTokenLimit(WhitespaceTokens::count, 4);
        List<String> texts = new Chunkers(options).chunk("d", LoadedDocument.prose("a b\nc d\ne f g\nh"))
                .stream().map(Chunk::text).toList();
        assertEquals(List.of("a b\nc d", "e f g\nh"), texts);
    }
}
