package io.corpora.engine.retriever;

import java.util.ArrayList;
import java.util.List;

/**
 * How a retrieval went.
 *
 * @param legs           every stage in execution order, with its candidate count and time
 * @param examined       candidates the final stage examined (after the store's own filter and floor)
 * @param rejected       candidates refused by the floor or the budget ({@code refusals} may list fewer: capped)
 * @param totalMillis    wall time of the whole retrieval
 * @param embedderId     the fingerprint id of the embedder that embedded the query (null when none did)
 * @param refusals       refused passages, best first, at most {@value #MAX_LISTED_REFUSALS} listed
 * @param degraded       a stage failed and a fallback answered (e.g. the reranker failed, base order returned)
 * @param degradedReason why, when degraded
 * @param notes          other facts a caller should know (e.g. minScore pushed into the store)
 * @param isolation      the server's fail-closed post-verification counts; null until the server fills them
 * @param corpusEmpty    whether the namespace holds no chunks at all; null when not checked (the server checks)
 * @param queryWindows   how many windows of the query were embedded and pooled (1: the query fit the embedder's
 *                       window; null: no embedding), see {@link io.corpora.engine.embed.QueryWindows}
 * @param queryTruncated whether part of the query was not embedded (beyond the window cap); the keyword leg always
 *                       reads the whole query
 */
public record RetrievalDiagnostics(List<LegReport> legs, int examined, int rejected, double totalMillis, String embedderId,
                                   List<Refusal> refusals, boolean degraded, String degradedReason, List<String> notes,
                                   IsolationReport isolation, Boolean corpusEmpty, Integer queryWindows, boolean queryTruncated) {

    public static final int MAX_LISTED_REFUSALS = 100;

    public RetrievalDiagnostics {
        legs = List.copyOf(legs);
        refusals = List.copyOf(refusals);
        notes = List.copyOf(notes);
    }

    /** The constructor before the query-window components: no embedding reported. */
    public RetrievalDiagnostics(List<LegReport> legs, int examined, int rejected, double totalMillis, String embedderId,
                                List<Refusal> refusals, boolean degraded, String degradedReason, List<String> notes,
                                IsolationReport isolation, Boolean corpusEmpty) {
        this(legs, examined, rejected, totalMillis, embedderId, refusals, degraded, degradedReason, notes, isolation, corpusEmpty,
                null, false);
    }

    public RetrievalDiagnostics withIsolation(IsolationReport report) {
        return new RetrievalDiagnostics(legs, examined, rejected, totalMillis, embedderId, refusals, degraded, degradedReason,
                notes, report, corpusEmpty, queryWindows, queryTruncated);
    }

    public RetrievalDiagnostics withCorpusEmpty(boolean empty) {
        return new RetrievalDiagnostics(legs, examined, rejected, totalMillis, embedderId, refusals, degraded, degradedReason,
                notes, isolation, empty, queryWindows, queryTruncated);
    }

    /** The report of the named stage, if it ran. */
    public java.util.Optional<LegReport> leg(String name) {
        return legs.stream().filter(l -> l.name().equals(name)).findFirst();
    }

    public List<Refusal> refusals(Refusal.Reason reason) {
        return refusals.stream().filter(r -> r.reason() == reason).toList();
    }

    static Builder builder() {
        return new Builder();
    }

    /** Accumulates one retrieval's diagnostics; stages of composed retrievers are folded in with {@link #absorb}. */
    static final class Builder {
        private final long startNanos = System.nanoTime();
        private final List<LegReport> legs = new ArrayList<>();
        private final List<Refusal> refusals = new ArrayList<>();
        private final List<String> notes = new ArrayList<>();
        private int examined;
        private int rejected;
        private String embedderId;
        private boolean degraded;
        private String degradedReason;
        private Integer queryWindows;
        private boolean queryTruncated;

        Builder leg(String name, int candidates, long sinceNanos) {
            legs.add(new LegReport(name, candidates, (System.nanoTime() - sinceNanos) / 1e6));
            return this;
        }

        Builder examined(int count) {
            this.examined = count;
            return this;
        }

        Builder refuse(Refusal refusal) {
            rejected++;
            if (refusals.size() < MAX_LISTED_REFUSALS) {
                refusals.add(refusal);
            }
            return this;
        }

        Builder embedderId(String id) {
            if (id != null) {
                this.embedderId = id;
            }
            return this;
        }

        Builder degraded(String reason) {
            if (!degraded) {
                degraded = true;
                degradedReason = reason;
            }
            return this;
        }

        Builder queryWindows(int windows, boolean truncated) {
            this.queryWindows = windows;
            this.queryTruncated |= truncated;
            return this;
        }

        Builder note(String note) {
            notes.add(note);
            return this;
        }

        /** Folds in an inner retrieval's stages, embedder, degradation and notes (its refusals stay its own). */
        Builder absorb(RetrievalDiagnostics inner) {
            legs.addAll(inner.legs());
            embedderId(inner.embedderId());
            if (inner.degraded()) {
                degraded(inner.degradedReason());
            }
            notes.addAll(inner.notes());
            if (inner.queryWindows() != null) {
                queryWindows(inner.queryWindows(), inner.queryTruncated());
            }
            for (Refusal refusal : inner.refusals()) {
                if (refusal.reason() == Refusal.Reason.BELOW_FLOOR) {
                    refuse(refusal);
                }
            }
            return this;
        }

        RetrievalDiagnostics build() {
            return new RetrievalDiagnostics(legs, examined, rejected, (System.nanoTime() - startNanos) / 1e6, embedderId,
                    refusals, degraded, degradedReason, notes, null, null, queryWindows, queryTruncated);
        }
    }
}
