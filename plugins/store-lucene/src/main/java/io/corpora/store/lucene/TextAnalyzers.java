package io.corpora.store.lucene;

import java.util.List;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.de.GermanAnalyzer;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.es.SpanishAnalyzer;
import org.apache.lucene.analysis.fr.FrenchAnalyzer;
import org.apache.lucene.analysis.it.ItalianAnalyzer;
import org.apache.lucene.analysis.pt.PortugueseAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;

/** Lucene's language analyzers by configuration name (stemming and stop words of the language). */
final class TextAnalyzers {

    static final List<String> NAMES = List.of("english", "standard", "portuguese", "spanish", "french", "german", "italian");

    private TextAnalyzers() {}

    static Analyzer forName(String name) {
        return switch (name) {
            case "english" -> new EnglishAnalyzer();
            case "standard" -> new StandardAnalyzer();
            case "portuguese" -> new PortugueseAnalyzer();
            case "spanish" -> new SpanishAnalyzer();
            case "french" -> new FrenchAnalyzer();
            case "german" -> new GermanAnalyzer();
            case "italian" -> new ItalianAnalyzer();
            default -> throw new IllegalArgumentException("unknown analyzer '" + name + "'; expected one of " + NAMES);
        };
    }
}
