package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class FrontMatterTest {

    /** The backtracking patterns the reader used to have: the reference for its line forms, quadratic on long lines. */
    private static final Pattern REFERENCE_KEY_VALUE = Pattern.compile("^([^\\s#:][^:]*?)\\s*:(?:\\s+(.*))?$");
    private static final Pattern REFERENCE_LIST_ITEM = Pattern.compile("^\\s*-\\s+(.*)$");

    @Provide
    Arbitrary<String> shortLines() {
        return Arbitraries.strings().withChars(' ', '\t', ':', '#', '-', 'a', 'b').ofMaxLength(12);
    }

    @Property(tries = 3000)
    void theLineScannersAgreeWithTheReferencePatternsOnShortLines(@ForAll("shortLines") String line) {
        Matcher keyValue = REFERENCE_KEY_VALUE.matcher(line);
        FrontMatter.KeyValue scanned = FrontMatter.keyValue(line);
        if (keyValue.matches()) {
            assertEquals(new FrontMatter.KeyValue(keyValue.group(1), keyValue.group(2) == null ? "" : keyValue.group(2)), scanned, line);
        } else {
            assertNull(scanned, line);
        }
        Matcher item = REFERENCE_LIST_ITEM.matcher(line);
        assertEquals(item.matches() ? item.group(1) : null, FrontMatter.listItem(line), line);
    }

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
