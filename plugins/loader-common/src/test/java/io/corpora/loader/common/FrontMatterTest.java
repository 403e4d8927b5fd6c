package io.corpora.loader.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoadException.Reason;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The platform's one front-matter grammar: ordinary YAML in, flat metadata out, everything else a named error. */
class FrontMatterTest {

    @Test
    void ordinaryYamlReadsAsYamlSays() {
        FrontMatter fm = FrontMatter.split("""
                ---
                title: "Expense: policy"   # a comment
                score: 4.5
                draft: false
                tags: [travel, money]
                owners:
                  - finance
                  - legal
                author:
                  name: Ana
                  aliases:
                    - A.
                summary: >
                  folded
                  text
                notes: |
                  kept
                  lines
                ---
                Body text
                """, "policy.md");
        assertEquals(Map.of("title", "Expense: policy", "score", 4.5, "draft", false, "tags", List.of("travel", "money"),
                "owners", List.of("finance", "legal"), "author.name", "Ana", "author.aliases", List.of("A."),
                "summary", "folded text\n", "notes", "kept\nlines\n"), fm.metadata());
        assertEquals("Body text\n", fm.body());
    }

    @Test
    void windowsLineEndsAndAByteOrderMarkStillOpenTheBlock() {
        FrontMatter fm = FrontMatter.split("\uFEFF---\r\nkey: value\r\n---\r\nbody", "a.md");
        assertEquals(Map.of("key", "value"), fm.metadata());
        assertEquals("body", fm.body());
    }

    @Test
    void noFrontMatterOrAnUnclosedOneLeavesTheTextAlone() {
        assertEquals("# Title\n", FrontMatter.split("# Title\n", "a.md").body());
        FrontMatter unclosed = FrontMatter.split("---\nkey: value\nno closing fence", "a.md");
        assertEquals(Map.of(), unclosed.metadata());
        assertEquals("---\nkey: value\nno closing fence", unclosed.body());
    }

    @Test
    void whatMetadataCannotHoldIsAnErrorNamingTheKey() {
        DocumentLoadException reserved = assertThrows(DocumentLoadException.class, () -> FrontMatter.split("---\n_tenant: evil\n---\nx", "a.md"));
        assertEquals(Reason.MALFORMED, reserved.reason());
        assertTrue(reserved.getMessage().contains("'_tenant'") && reserved.getMessage().contains("reserved"), reserved.getMessage());
        DocumentLoadException listOfLists = assertThrows(DocumentLoadException.class, () -> FrontMatter.split("---\nm:\n  - [a, b]\n---\nx", "a.md"));
        assertTrue(listOfLists.getMessage().contains("'m'"), listOfLists.getMessage());
        DocumentLoadException invalid = assertThrows(DocumentLoadException.class, () -> FrontMatter.split("---\nkey: [unclosed\n---\nx", "a.md"));
        assertTrue(invalid.getMessage().contains("not valid YAML") && invalid.getMessage().contains("a.md"), invalid.getMessage());
    }

    @Test
    void aBlockOverTheLimitIsRefusedBeforeParsing() {
        String big = "k: " + "x".repeat(FrontMatter.MAX_CHARS);
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> FrontMatter.split("---\n" + big + "\n---\nbody", "a.md"));
        assertEquals(Reason.TOO_LARGE, e.reason());
    }
}
