package io.corpora.client;

import io.corpora.client.model.AnswerCitation;
import java.util.List;

/**
 * What a streamed ask delivers while the answer is written, on the stream's own thread and in the server's order:
 * first the numbered passages the model is given, then the answer's text piece by piece (citation markers already
 * checked by the server). The complete answer is {@link AskStream#answer()}.
 */
public interface AskListener {

    /** The passages of the context, numbered as the answer cites them; empty: a "no source" answer follows. */
    default void retrieved(List<AnswerCitation> context) {}

    /** The next piece of the answer; the pieces concatenated are the final answer's text. */
    default void delta(String text) {}
}
