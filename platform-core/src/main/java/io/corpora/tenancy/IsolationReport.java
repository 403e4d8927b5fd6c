package io.corpora.tenancy;

/**
 * What the isolation guard saw during one request.
 *
 * @param examined hits the store returned
 * @param rejected hits dropped because their reserved keys were foreign or missing
 * @param returned hits passed on
 * @param recallPotentiallyReduced rejections forced an over-fetch that still could not fill the request
 */
public record IsolationReport(int examined, int rejected, int returned, boolean recallPotentiallyReduced) {
    public String recall() {
        return recallPotentiallyReduced ? "potentially-reduced" : "full";
    }
}
