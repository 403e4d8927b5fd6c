package io.corpora.loader.text;

import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.testkit.AdversarialLine;
import io.corpora.testkit.LinearTime;
import io.corpora.testkit.Loaders;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

/**
 * The Markdown loader costs linear time on any line: a document of one adversarial line of 1 MB and one of 2 MB (the
 * shapes that made the old title pattern backtrack quadratically, and generated ones), the larger under 3× the smaller.
 */
class MarkdownLoaderCostTest {

    private final DocumentLoader loader = Loaders.create("markdown", Map.of());

    /** Loads, or refuses (a line of spaces has no text): either way an answer, whose cost is measured. */
    private void load(String markdown) {
        try {
            loader.load(new LoadRequest(markdown.getBytes(StandardCharsets.UTF_8), "text/markdown", null, "adversarial.md"));
        } catch (DocumentLoadException refused) {
            // a refusal costs time too, and is what is measured
        }
    }

    @Test
    void theKnownQuadraticShapesLoadInLinearTime() {
        LinearTime.assertLinearOnKnownShapes("markdown loader", this::load);
        LinearTime.assertLinearOnKnownShapes("title", MarkdownLoader::firstH1);
    }

    @Property(tries = 6)
    void generatedLinesLoadInLinearTime(@ForAll(supplier = AdversarialLine.Generated.class) AdversarialLine line) {
        LinearTime.assertLinear("markdown loader", line, this::load);
    }
}
