package io.corpora.answer;

/** Told about every answer (metrics). Tags carry the tenant id, never content. */
public interface AnswerObserver {

    /** How an answer ended. */
    enum Outcome { ANSWERED, NO_SOURCE, CANCELLED, FAILED }

    /** An answer ended; {@code removedCitations} markers were stripped from it. */
    void answered(String tenant, Outcome outcome, int removedCitations);

    /** A query transform's model call failed or timed out and the original question was used. */
    void transformFellBack(String tenant, String transform);

    AnswerObserver NONE = new AnswerObserver() {
        @Override
        public void answered(String tenant, Outcome outcome, int removedCitations) {}

        @Override
        public void transformFellBack(String tenant, String transform) {}
    };
}
