package {{package}};

import io.corpora.spi.rerank.Reranker;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A starting point: scores each text by the fraction of the query's words it contains. Replace {@link #score} with
 * calls to your model; return one finite score per text, in the order given (higher is more relevant).
 */
final class {{Class}}Reranker implements Reranker {

    private final int minWordLength;

    {{Class}}Reranker(int minWordLength) {
        this.minWordLength = minWordLength;
    }

    @Override
    public double[] score(String query, List<String> texts) {
        Set<String> words = words(query);
        return texts.stream().mapToDouble(text -> {
            if (words.isEmpty()) {
                return 0;
            }
            Set<String> present = words(text);
            return words.stream().filter(present::contains).count() / (double) words.size();
        }).toArray();
    }

    private Set<String> words(String text) {
        return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
                .filter(w -> w.length() >= minWordLength).collect(Collectors.toSet());
    }
}
