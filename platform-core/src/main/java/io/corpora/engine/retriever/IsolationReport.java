package io.corpora.engine.retriever;

/**
 * What the fail-closed isolation check saw during one retrieval: the guard's counts around the store, completed by the
 * final check of every passage handed to the caller. One record for both, so the diagnostics report what the guard saw.
 *
 * @param examined                 hits the store returned
 * @param rejected                 hits dropped because their reserved keys were foreign or missing
 * @param returned                 hits passed on
 * @param recallPotentiallyReduced rejections forced an over-fetch that still could not fill the request
 */
public record IsolationReport(int examined, int rejected, int returned, boolean recallPotentiallyReduced) {

    /** {@code full}, or {@code potentially-reduced} when a bounded over-fetch could not make up for the rejections. */
    public String recall() {
        return recallPotentiallyReduced ? "potentially-reduced" : "full";
    }

    /** This report after a later check rejected {@code rejectedLater} more and let {@code returnedNow} through. */
    public IsolationReport afterFinalCheck(int rejectedLater, int returnedNow) {
        return new IsolationReport(examined, rejected + rejectedLater, returnedNow, recallPotentiallyReduced);
    }
}
