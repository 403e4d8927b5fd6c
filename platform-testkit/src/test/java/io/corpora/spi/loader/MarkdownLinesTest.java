package io.corpora.spi.loader;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.corpora.testkit.AdversarialLine;
import io.corpora.testkit.LinearTime;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class MarkdownLinesTest {

    /** The backtracking pattern the chunker used to have: the reference for what a heading is, quadratic on long lines. */
    private static final Pattern REFERENCE_HEADING = Pattern.compile("^ {0,3}(#{1,6})[ \\t]+(.*?)(?:[ \\t]+#+)?[ \\t]*$");
    private static final Pattern REFERENCE_FENCE = Pattern.compile("^ {0,3}(```|~~~).*$");

    @Test
    void readsAtxHeadings() {
        assertEquals(new MarkdownLines.Heading(2, "Lodging"), MarkdownLines.heading("## Lodging"));
        assertEquals(new MarkdownLines.Heading(1, "Title"), MarkdownLines.heading("   # Title ##  "));
        assertEquals(new MarkdownLines.Heading(3, "C# and F#"), MarkdownLines.heading("### C# and F#"));
        assertEquals(new MarkdownLines.Heading(2, "###"), MarkdownLines.heading("## ###"), "a closing sequence needs a space before it");
        assertEquals(new MarkdownLines.Heading(6, ""), MarkdownLines.heading("###### "));
        assertNull(MarkdownLines.heading("####### seven"));
        assertNull(MarkdownLines.heading("    # indented code"));
        assertNull(MarkdownLines.heading("#hashtag"));
        assertNull(MarkdownLines.heading("##"));
    }

    @Test
    void readsFenceMarkers() {
        assertEquals("```", MarkdownLines.fence("```java"));
        assertEquals("~~~", MarkdownLines.fence("   ~~~"));
        assertNull(MarkdownLines.fence("    ```"));
        assertNull(MarkdownLines.fence("``"));
    }

    @Provide
    Arbitrary<String> shortLines() {
        return Arbitraries.strings().withChars(' ', '\t', '#', 'a', 'b', '`', '~').ofMaxLength(14);
    }

    @Property(tries = 3000)
    void agreesWithTheReferencePatternOnShortLines(@ForAll("shortLines") String line) {
        Matcher reference = REFERENCE_HEADING.matcher(line);
        MarkdownLines.Heading heading = MarkdownLines.heading(line);
        if (reference.matches()) {
            assertEquals(new MarkdownLines.Heading(reference.group(1).length(), reference.group(2)), heading, line);
        } else {
            assertNull(heading, line);
        }
        Matcher fence = REFERENCE_FENCE.matcher(line);
        assertEquals(fence.matches() ? fence.group(1) : null, MarkdownLines.fence(line), line);
    }

    @Test
    void theKnownQuadraticShapesCostLinearTime() {
        LinearTime.assertLinearOnKnownShapes("heading scanner", MarkdownLines::heading);
    }

    @Property(tries = 10)
    void generatedLinesCostLinearTime(@ForAll(supplier = AdversarialLine.Generated.class) AdversarialLine line) {
        LinearTime.assertLinear("heading scanner", line, l -> {
            MarkdownLines.heading(l);
            MarkdownLines.fence(l);
        });
    }
}
