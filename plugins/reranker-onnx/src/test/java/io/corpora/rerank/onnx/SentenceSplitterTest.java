package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SentenceSplitterTest {

    private final SentenceSplitter splitter = new SentenceSplitter(25);

    @Test
    void splitsAtSentenceEnds() {
        assertEquals(List.of("The first sentence is here.", "The second one asks a question?", "And the third one exclaims loudly!"),
                splitter.split("The first sentence is here. The second one asks a question? And the third one exclaims loudly!"));
    }

    @Test
    void joinsShortFragmentsToTheirNeighbour() {
        assertEquals(List.of("Results. Mortality fell by a third in the treated group."),
                splitter.split("Results. Mortality fell by a third in the treated group."));
        assertEquals(List.of("Mortality fell by a third in the treated group. See Fig. 2."),
                splitter.split("Mortality fell by a third in the treated group. See Fig. 2."));
    }

    @Test
    void blankTextHasNoSentences() {
        assertEquals(List.of(), splitter.split(" \n\t "));
        assertEquals(List.of("tiny"), splitter.split("tiny"));
    }
}
