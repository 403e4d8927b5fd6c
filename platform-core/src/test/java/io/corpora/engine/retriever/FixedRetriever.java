package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import java.util.ArrayList;
import java.util.List;

/** A test input: a retriever that returns a fixed ranking (cut to topK) and remembers the options it was asked with. */
final class FixedRetriever implements Retriever {

    private final String name;
    private final List<Passage> ranking;
    final List<RetrieveOptions> calls = new ArrayList<>();

    FixedRetriever(String name, List<Passage> ranking) {
        this.name = name;
        this.ranking = Passages.ranked(ranking);
    }

    /** Passages with descending scores in the given id order. */
    static FixedRetriever ranking(String name, String... ids) {
        List<Passage> passages = new ArrayList<>();
        for (int i = 0; i < ids.length; i++) {
            passages.add(passage(ids[i], 1.0 - i * 0.01));
        }
        return new FixedRetriever(name, passages);
    }

    static Passage passage(String id, double score) {
        return new Passage(id, "text of " + id, score, "source-" + id, java.util.Map.of());
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        calls.add(options);
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder();
        long start = System.nanoTime();
        List<Passage> top = ranking.subList(0, Math.min(options.topK(), ranking.size()));
        diagnostics.leg(name, top.size(), start);
        return new RetrievalResult(ResultShaper.shape(top, options, true, diagnostics), diagnostics.build());
    }
}
