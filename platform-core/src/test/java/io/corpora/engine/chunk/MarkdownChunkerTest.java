package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MarkdownChunkerTest {

    private static final String POLICY = """
            ---
            title: Expense Policy
            owner: "finance team"
            version: 3
            audience: [public, role:employee]
            tags:
              - travel
              - money
            summary: |
              Two lines
              of block scalar.
            nested:
              key: value
            ---
            # Expense Policy

            Applies to everyone.

            ## Lodging

            Hotels up to 150 EUR per night.

            ### Exceptions

            Conferences may exceed the cap.

            ## Meals

            ```
            # not a heading inside a code fence
            ```
            Dinner up to 40 EUR.
            """;

    private List<Chunk> chunk(String markdown) {
        return new MarkdownChunker(ChunkingOptions.defaults())
                .chunk("policy.md", new LoadedDocument(ContentFormat.MARKDOWN, null, List.of(Section.of(markdown)), Map.of()));
    }

    @Test
    void eachHeadingSectionIsAChunkCarryingItsHeadingPath() {
        List<Chunk> chunks = chunk(POLICY);
        assertEquals(List.of(
                List.of("Expense Policy"),
                List.of("Expense Policy", "Lodging"),
                List.of("Expense Policy", "Lodging", "Exceptions"),
                List.of("Expense Policy", "Meals")), chunks.stream().map(Chunk::headingPath).toList());
        assertEquals("Hotels up to 150 EUR per night.", chunks.get(1).text());
        assertTrue(chunks.get(3).text().contains("# not a heading inside a code fence"));
    }

    @Test
    void frontMatterBecomesDocumentMetadataOnEveryChunk() {
        for (Chunk c : chunk(POLICY)) {
            Map<String, Object> m = c.metadata();
            assertEquals("Expense Policy", m.get("title"));
            assertEquals("finance team", m.get("owner"));
            assertEquals(3, m.get("version"));
            assertEquals(List.of("public", "role:employee"), m.get("audience"));
            assertEquals(List.of("travel", "money"), m.get("tags"));
            assertEquals("Two lines\nof block scalar.\n", m.get("summary"), "block scalars are YAML's");
            assertEquals("value", m.get("nested.key"), "nested maps are flattened to dotted keys, as the Markdown loader does");
            assertFalse(c.text().contains("finance team"), "front matter is not chunk text");
        }
    }

    /** The chunker reads front matter with the loader's grammar: a reserved key is refused, never taken or dropped. */
    @Test
    void reservedKeysInFrontMatterAreRefused() {
        DocumentLoadException refused = assertThrows(DocumentLoadException.class, () -> chunk("---\n_tenant: evil\n---\n# T\n\nbody"));
        assertTrue(refused.getMessage().contains("'_tenant'") && refused.getMessage().contains("reserved"), refused.getMessage());
    }

    @Test
    void aLongSectionIsCutByTheProseRuleKeepingItsPath() {
        String markdown = "# Guide\n\n## Install\n\n" + "Run the installer and wait. ".repeat(80);
        List<Chunk> chunks = chunk(markdown);
        assertTrue(chunks.size() >= 3);
        chunks.forEach(c -> {
            assertEquals(List.of("Guide", "Install"), c.headingPath());
            assertTrue(c.text().length() <= 800);
        });
    }

    @Test
    void textBeforeTheFirstHeadingHasAnEmptyPathAndAThematicBreakIsNotFrontMatter() {
        List<Chunk> chunks = chunk("Intro line.\n\n---\n\n# Later\n\nBody.");
        assertEquals(List.of(), chunks.get(0).headingPath());
        assertTrue(chunks.get(0).text().startsWith("Intro line."));
        assertEquals(List.of("Later"), chunks.get(1).headingPath());
    }

    @Test
    void headingLevelsPopCorrectlyWhenASiblingFollowsADeeperHeading() {
        List<Chunk> chunks = chunk("# A\n\na\n\n### A.x\n\nax\n\n## B ##\n\nb\n");
        assertEquals(List.of("A", "B"), chunks.get(2).headingPath());
    }

    @Test
    void aHugeHeadingIsCutSoItDoesNotMultiplyByTheChunksUnderIt() {
        String heading = "H".repeat(100_000);
        StringBuilder markdown = new StringBuilder("# " + heading + "\n\n");
        for (int i = 0; i < 40; i++) {
            markdown.append("Paragraph ").append(i).append(" says something about lanterns and their wicks at length.\n\n");
        }
        List<Chunk> chunks = new MarkdownChunker(ChunkingOptions.of(200, 0)).chunk("big.md",
                new LoadedDocument(ContentFormat.MARKDOWN, heading, List.of(Section.of(markdown.toString())), Map.of()));
        assertTrue(chunks.size() > 10, "many chunks under the one heading: " + chunks.size());
        for (Chunk chunk : chunks) {
            String label = chunk.headingPath().get(0);
            assertEquals(ChunkFactory.MAX_LABEL_CHARS, label.length(), label);
            assertTrue(label.startsWith("HHH") && label.endsWith("…"));
            assertEquals(label, chunk.metadata().get("title"), "the loader's title is cut the same way");
        }
        assertEquals("\uD83D\uDCDA".repeat(99) + "…", ChunkFactory.label("\uD83D\uDCDA".repeat(150)), "never half a surrogate pair");
    }
}
