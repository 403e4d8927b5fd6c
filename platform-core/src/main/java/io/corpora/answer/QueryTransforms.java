package io.corpora.answer;

import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Query transforms: extra queries a model writes for a question, retrieved beside the question itself and fused.
 * <b>Multi-query expansion</b> asks for n other phrasings; <b>HyDE</b> (Gao et al., 2022) for a hypothetical passage
 * that would answer it, whose embedding lies nearer the answer's than the question's. A transform whose model call
 * fails, times out ({@code timeout}, after which the call is cancelled) or answers nothing usable falls back: the
 * question is retrieved alone and the report says why. A transform never fails the request.
 */
final class QueryTransforms {

    static final String MULTI_QUERY = "multi-query";
    static final String HYDE = "hyde";
    /** Longest extra query kept (the model's text is cut there; retrieval bounds apply to what callers send). */
    static final int MAX_QUERY_CHARS = 1_000;

    private final Duration timeout;

    QueryTransforms(Duration timeout) {
        this.timeout = timeout;
    }

    Answer.TransformReport multiQuery(Generator generator, String question, int phrasings) {
        String prompt = "You rewrite search queries. Write " + phrasings + " different phrasings of the user's question that could"
                + " match documents answering it: other words, synonyms, a more specific and a more general form. One phrasing per"
                + " line, no numbering, no other text.";
        try {
            String text = complete(generator, GenerationRequest.of(ChatMessage.system(prompt), ChatMessage.user(question)).withMaxTokens(60 * phrasings));
            Set<String> queries = new LinkedHashSet<>();
            for (String line : text.split("\\R")) {
                String query = clean(line.replaceFirst("^\\s*(?:[-*•]|\\d+[.)])\\s*", ""));
                if (!query.isEmpty() && !query.equalsIgnoreCase(question.strip()) && queries.size() < phrasings) {
                    queries.add(query);
                }
            }
            if (queries.isEmpty()) {
                return fellBack(MULTI_QUERY, "the model wrote no phrasing");
            }
            return new Answer.TransformReport(MULTI_QUERY, false, new ArrayList<>(queries), null);
        } catch (Failure e) {
            return fellBack(MULTI_QUERY, e.getMessage());
        }
    }

    Answer.TransformReport hyde(Generator generator, String question) {
        String prompt = "Write a short passage, at most 120 words, that answers the user's question the way a reference document"
                + " would state it. Write only the passage.";
        try {
            String draft = clean(complete(generator, GenerationRequest.of(ChatMessage.system(prompt), ChatMessage.user(question)).withMaxTokens(200)));
            if (draft.isEmpty()) {
                return fellBack(HYDE, "the model wrote no passage");
            }
            return new Answer.TransformReport(HYDE, false, List.of(draft), null);
        } catch (Failure e) {
            return fellBack(HYDE, e.getMessage());
        }
    }

    private static Answer.TransformReport fellBack(String name, String reason) {
        return new Answer.TransformReport(name, true, List.of(), reason);
    }

    /** The model's whole text, within the timeout; the call is cancelled when it is exceeded. */
    private String complete(Generator generator, GenerationRequest request) throws Failure {
        GenerationStream stream = generator.stream(request, delta -> {});
        try {
            return stream.result().toCompletableFuture().get(timeout.toMillis(), TimeUnit.MILLISECONDS).text();
        } catch (TimeoutException e) {
            stream.cancel();
            throw new Failure("no answer within " + timeout.toMillis() + " ms");
        } catch (InterruptedException e) {
            stream.cancel();
            Thread.currentThread().interrupt();
            throw new Failure("interrupted");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw new Failure(cause.getClass().getSimpleName() + ": " + cause.getMessage());
        } catch (RuntimeException e) {
            throw new Failure(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    private static String clean(String text) {
        String stripped = text.replaceAll("\\p{Cntrl}", " ").strip();
        return stripped.length() > MAX_QUERY_CHARS ? stripped.substring(0, MAX_QUERY_CHARS) : stripped;
    }

    private static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message, null, false, false);
        }
    }
}
