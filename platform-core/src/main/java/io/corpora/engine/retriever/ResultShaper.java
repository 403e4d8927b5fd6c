package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The last steps every retriever shares, in this order: score floor (before the top-K cut), top-K, then the
 * character budget spent in rank order, refusing whole passages.
 */
final class ResultShaper {

    private ResultShaper() {}

    /**
     * @param ranked     candidates in rank order
     * @param applyFloor whether {@link RetrieveOptions#minScore()} applies to these scores (not to rank statistics)
     */
    static List<Passage> shape(List<Passage> ranked, RetrieveOptions options, boolean applyFloor,
                               RetrievalDiagnostics.Builder diagnostics) {
        diagnostics.examined(ranked.size());
        List<Passage> kept = new ArrayList<>();
        for (Passage p : ranked) {
            if (applyFloor && options.minScore() != null && p.score() < options.minScore()) {
                diagnostics.refuse(new Refusal(p.id(), Refusal.Reason.BELOW_FLOOR, p.score(), p.text().length(), 0));
                continue;
            }
            if (kept.size() < options.topK()) {
                kept.add(p);
            }
        }
        return spendBudget(kept, options.maxChars(), diagnostics);
    }

    /** Keeps passages in rank order while they fit the budget; one that does not fit is refused whole. */
    static List<Passage> spendBudget(List<Passage> ranked, Integer maxChars, RetrievalDiagnostics.Builder diagnostics) {
        if (maxChars == null) {
            return ranked;
        }
        List<Passage> kept = new ArrayList<>();
        int used = 0;
        for (Passage p : ranked) {
            int chars = p.text().length();
            if (used + chars > maxChars) {
                diagnostics.refuse(new Refusal(p.id(), Refusal.Reason.OVER_BUDGET, p.score(), chars, used));
                continue;
            }
            used += chars;
            kept.add(p);
        }
        return kept;
    }

    /** Options for an inner stage: more candidates, no budget (the outermost stage spends it). */
    static RetrieveOptions inner(RetrieveOptions options, int fetchTopK) {
        return options.withTopK(Math.min(RetrieveOptions.MAX_TOP_K, Math.max(fetchTopK, options.topK()))).withMaxChars(null);
    }
}
