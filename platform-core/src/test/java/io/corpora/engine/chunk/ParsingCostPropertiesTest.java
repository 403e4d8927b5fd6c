package io.corpora.engine.chunk;

import io.corpora.loader.common.FrontMatter;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import io.corpora.testkit.AdversarialLine;
import io.corpora.testkit.LinearTime;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The Markdown chunker and the front-matter reader cost linear time on any line: each is fed adversarial lines of a
 * megabyte and of two ({@link LinearTime#CHARS}) — the shapes that made the old patterns backtrack quadratically, and
 * generated ones — and the larger must cost less than three times the smaller ({@link LinearTime}).
 */
class ParsingCostPropertiesTest {

    private static void chunkMarkdown(String text) {
        new MarkdownChunker(ChunkingOptions.defaults())
                .chunk("adversarial.md", new LoadedDocument(ContentFormat.MARKDOWN, null, List.of(Section.of(text)), Map.of()));
    }

    /** A line over the block limit is refused (TOO_LARGE) after the linear fence scan; a shorter one is parsed. */
    private static void readFrontMatter(String line) {
        try {
            FrontMatter.split("---\n" + line + "\n---\nbody", "adversarial.md");
        } catch (DocumentLoadException e) {
            // refused as too large or not metadata: the cost up to the refusal is what is measured
        }
    }

    @Test
    void theKnownQuadraticShapesChunkInLinearTime() {
        LinearTime.assertLinearOnKnownShapes("markdown chunker", ParsingCostPropertiesTest::chunkMarkdown);
    }

    @Test
    void theKnownQuadraticShapesAreReadAsFrontMatterInLinearTime() {
        LinearTime.assertLinearOnKnownShapes("front matter", ParsingCostPropertiesTest::readFrontMatter);
    }

    @Property(tries = 6)
    void generatedLinesChunkInLinearTime(@ForAll(supplier = AdversarialLine.Generated.class) AdversarialLine line) {
        LinearTime.assertLinear("markdown chunker", line, ParsingCostPropertiesTest::chunkMarkdown);
    }

    @Property(tries = 6)
    void generatedLinesAreReadAsFrontMatterInLinearTime(@ForAll(supplier = AdversarialLine.Generated.class) AdversarialLine line) {
        LinearTime.assertLinear("front matter", line, ParsingCostPropertiesTest::readFrontMatter);
    }
}
