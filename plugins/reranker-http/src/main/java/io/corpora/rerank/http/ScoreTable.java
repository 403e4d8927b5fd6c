package io.corpora.rerank.http;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Turns a response's {@code [{index, score}]} results (in any order, usually best first) back into one score per
 * input text, in input order, refusing anything incomplete: a missing, repeated or out-of-range index, or a
 * score that is not a finite number, is an error rather than a silently wrong ranking.
 */
final class ScoreTable {

    private ScoreTable() {}

    /**
     * @param describe names the request in messages, e.g. "rerank response from http://host/rerank"
     * @throws RerankException naming the first problem
     */
    static double[] align(RerankFormat format, JsonNode response, int expected, String describe) {
        JsonNode results = format.results(response);
        if (!results.isArray()) {
            throw new RerankException(describe + " is not in the " + format.optionValue() + " format: expected "
                    + (format == RerankFormat.TEI ? "a JSON array" : "an array field '" + fieldName(format) + "'"));
        }
        double[] scores = new double[expected];
        boolean[] seen = new boolean[expected];
        for (JsonNode result : results) {
            JsonNode index = result.path("index");
            JsonNode score = result.path(format.scoreField());
            if (!index.canConvertToInt() || !index.isIntegralNumber()) {
                throw new RerankException(describe + " has a result without an integer 'index': " + excerpt(result));
            }
            int i = index.intValue();
            if (i < 0 || i >= expected) {
                throw new RerankException(describe + " scored document " + i + ", but only " + expected + " were sent");
            }
            if (seen[i]) {
                throw new RerankException(describe + " scored document " + i + " twice");
            }
            if (!score.isNumber() || !Double.isFinite(score.doubleValue())) {
                throw new RerankException(describe + " has no finite '" + format.scoreField() + "' for document " + i);
            }
            scores[i] = score.doubleValue();
            seen[i] = true;
        }
        for (int i = 0; i < expected; i++) {
            if (!seen[i]) {
                long scored = countTrue(seen);
                throw new RerankException(describe + " scored " + scored + " of " + expected + " documents (document "
                        + i + " has no score)");
            }
        }
        return scores;
    }

    private static String fieldName(RerankFormat format) {
        return format == RerankFormat.VOYAGE ? "data" : "results";
    }

    private static long countTrue(boolean[] flags) {
        int count = 0;
        for (boolean flag : flags) {
            count += flag ? 1 : 0;
        }
        return count;
    }

    private static String excerpt(JsonNode node) {
        String text = node.toString();
        return text.length() > 120 ? text.substring(0, 120) + "…" : text;
    }
}
