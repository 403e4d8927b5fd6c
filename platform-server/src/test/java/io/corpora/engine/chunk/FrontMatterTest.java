package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FrontMatterTest {

    @Test
    void parsesScalarsListsAndKeepsTheBody() {
        FrontMatter fm = FrontMatter.parse("---\r\npublished: 2024-03-01\nscore: 4.5\ndraft: false\nquote: 'a # b'\n"
                + "empty:\nlist: []\n---\r\nBody text\n");
        assertEquals(Map.of("published", "2024-03-01", "score", 4.5, "draft", false, "quote", "a # b", "list", List.of()), fm.metadata());
        assertEquals("Body text\n", fm.body());
    }

    @Test
    void noFrontMatterOrAnUnclosedOneLeavesTheTextAlone() {
        assertEquals("# Title\n", FrontMatter.parse("# Title\n").body());
        assertEquals(Map.of(), FrontMatter.parse("---\nkey: value\nno closing fence").metadata());
    }

    @Test
    void invalidMetadataKeysAreSkipped() {
        assertEquals(Map.of("ok", "yes"), FrontMatter.parse("---\nok: yes\nbad key: no\n---\n").metadata());
    }
}
