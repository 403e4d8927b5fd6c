package io.corpora.answer;

/**
 * Receives a streamed answer as it is produced, on the thread the service calls from or the generator's own. Calls are
 * sequential. A listener that throws (e.g. the client went away) cancels the model call.
 */
public interface AnswerListener {

    /** Retrieval is done: the numbered passages the model will be given (empty: a "no source" answer follows). */
    void retrieved(java.util.List<AnswerCitation> context);

    /** The next piece of the answer, citation markers already checked. */
    void delta(String text);

    /** A listener for a whole answer. */
    AnswerListener NONE = new AnswerListener() {
        @Override
        public void retrieved(java.util.List<AnswerCitation> context) {}

        @Override
        public void delta(String text) {}
    };
}
