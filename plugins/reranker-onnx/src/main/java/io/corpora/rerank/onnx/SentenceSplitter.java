package io.corpora.rerank.onnx;

import java.text.BreakIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Splits a passage into sentences with the JDK's sentence {@link BreakIterator}; a fragment shorter than
 * {@code minChars} (a heading, "Fig. 2", an abbreviation's tail) is joined to the sentence before it, so a
 * sentence is never scored on a scrap.
 */
final class SentenceSplitter {

    private final int minChars;

    SentenceSplitter(int minChars) {
        this.minChars = minChars;
    }

    List<String> split(String text) {
        BreakIterator iterator = BreakIterator.getSentenceInstance(Locale.ROOT);
        iterator.setText(text);
        List<String> sentences = new ArrayList<>();
        int start = iterator.first();
        for (int end = iterator.next(); end != BreakIterator.DONE; start = end, end = iterator.next()) {
            String sentence = text.substring(start, end).strip();
            if (sentence.isEmpty()) {
                continue;
            }
            if (sentence.length() < minChars && !sentences.isEmpty()) {
                int last = sentences.size() - 1;
                sentences.set(last, sentences.get(last) + " " + sentence);
            } else if (!sentences.isEmpty() && sentences.get(sentences.size() - 1).length() < minChars) {
                int last = sentences.size() - 1;
                sentences.set(last, sentences.get(last) + " " + sentence);
            } else {
                sentences.add(sentence);
            }
        }
        return sentences;
    }
}
