package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.testkit.AdversarialLine;
import io.corpora.testkit.LinearTime;
import java.text.Normalizer;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class ContentFingerprintTest {

    /** The normalisation as a pattern replacement: the reference, quadratic on a long run of spaces without a line feed. */
    private static String reference(String text) {
        String nfc = Normalizer.normalize(text, Normalizer.Form.NFC).replace("\r\n", "\n").replace('\r', '\n');
        return nfc.replaceAll("[ \\t]+\\n", "\n").strip();
    }

    @Provide
    Arbitrary<String> shortTexts() {
        return Arbitraries.strings().withChars(' ', '\t', '\n', '\r', 'a', 'e', '\u0301').ofMaxLength(16);
    }

    @Property(tries = 3000)
    void normalisesLikeTheReference(@ForAll("shortTexts") String text) {
        assertEquals(reference(text), ContentFingerprint.normalise(text));
    }

    @Test
    void theKnownQuadraticShapesNormaliseInLinearTime() {
        LinearTime.assertLinearOnKnownShapes("fingerprint normalisation", ContentFingerprint::normalise);
    }

    @Property(tries = 6)
    void generatedLinesNormaliseInLinearTime(@ForAll(supplier = AdversarialLine.Generated.class) AdversarialLine line) {
        LinearTime.assertLinear("fingerprint normalisation", line, ContentFingerprint::normalise);
    }
}
