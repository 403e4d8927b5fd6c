package io.corpora.answer;

import io.corpora.controlplane.AnswerPolicy;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.engine.retriever.ContextBlock;
import io.corpora.retrieval.RetrievalResponse;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Passage;
import io.corpora.spi.RankFusion;
import io.corpora.spi.generate.ChatMessage;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationRequest;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.Generator;
import io.corpora.tenancy.AccessDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Answers a question from a tenant's corpus with its generator. The order is the isolation argument, as for
 * retrieval: every passage comes from {@link RetrievalService#retrieve} under the request's {@link AccessDecision}
 * (hook, partition binding, floor), so the prompt can only hold what the actor may see; extra queries of the transforms
 * are retrieved the same way. Then:
 * <ol>
 *   <li>no passage in the context → the "no source" answer, without calling the model;</li>
 *   <li>the prompt: the tenant's template (system message) with the numbered context block — delimited, its
 *       delimiters neutralised inside passages — and the question as the user message;</li>
 *   <li>the answer's citation markers checked while it streams ({@link CitationCheck}); the citations are the passages
 *       cited, in order of first citation.</li>
 * </ol>
 */
public final class AnswerService {

    /** What a tenant's answer says when nothing it may see matches the question. */
    public static final String NO_SOURCE_ANSWER =
            "I don't know: no passage in the documents available to you matches this question.";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{(context|question)\\}");

    private final RetrievalService retrieval;
    private final QueryTransforms transforms;
    private final AnswerObserver observer;

    /** @param transformTimeout how long a query transform's model call may take before it is cancelled and falls back */
    public AnswerService(RetrievalService retrieval, Duration transformTimeout, AnswerObserver observer) {
        this.retrieval = Objects.requireNonNull(retrieval, "retrieval");
        this.transforms = new QueryTransforms(Objects.requireNonNull(transformTimeout, "transformTimeout"));
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    /** The whole answer at once. */
    public Answer ask(AccessDecision access, TenantRuntime runtime, RetrieveCommand question) {
        return ask(access, runtime, question, AnswerListener.NONE);
    }

    /**
     * The answer, streamed to {@code listener} as it is produced and returned whole at the end. Throws
     * {@link NoGeneratorException} (before anything is retrieved) when the tenant has no generator; a
     * {@link CancellationException} when the listener gave up (the model call is cancelled); the generator's failures
     * (through its guard: {@code PluginUnavailableException}, or the caller's {@code InvalidInputException}) otherwise.
     */
    public Answer ask(AccessDecision access, TenantRuntime runtime, RetrieveCommand question, AnswerListener listener) {
        Generator generator = runtime.generator();
        String tenant = runtime.tenantId();
        if (generator == null) {
            throw new NoGeneratorException(tenant);
        }
        AnswerPolicy policy = runtime.definition().answers();
        List<Answer.TransformReport> reports = new ArrayList<>();
        List<String> extra = new ArrayList<>();
        if (policy.multiQueryPhrasings() > 0) {
            reports.add(transforms.multiQuery(generator, question.query(), policy.multiQueryPhrasings()));
        }
        if (policy.hyde()) {
            reports.add(transforms.hyde(generator, question.query()));
        }
        for (Answer.TransformReport report : reports) {
            if (report.fellBack()) {
                observer.transformFellBack(tenant, report.name());
            }
            extra.addAll(report.queries());
        }

        Context context = extra.isEmpty() ? context(retrieval.retrieve(access, runtime, question))
                : fused(access, runtime, question, extra);
        listener.retrieved(context.passages());
        if (context.passages().isEmpty()) {
            listener.delta(NO_SOURCE_ANSWER);
            observer.answered(tenant, AnswerObserver.Outcome.NO_SOURCE, 0);
            return new Answer(NO_SOURCE_ANSWER, List.of(), null, new Answer.Diagnostics(true, null, 0, 0, null, reports, context.diagnostics()));
        }

        GenerationRequest request = GenerationRequest.of(ChatMessage.system(prompt(policy.template(), context.block().text(), question.query())),
                ChatMessage.user(question.query())).withMaxTokens(policy.maxTokens());
        CitationCheck check = new CitationCheck(context.passages().size());
        StringBuilder text = new StringBuilder();
        Generation generation;
        try {
            java.util.function.Consumer<String> checked = piece -> {
                String clean = check.accept(piece);
                if (!clean.isEmpty()) {
                    text.append(clean);
                    listener.delta(clean);
                }
            };
            if (listener == AnswerListener.NONE) { // nobody reads deltas: one plain call
                generation = generator.generate(request);
                checked.accept(generation.text());
            } else {
                generation = generate(generator, request, checked);
            }
        } catch (CancellationException e) {
            observer.answered(tenant, AnswerObserver.Outcome.CANCELLED, check.removed());
            throw e;
        } catch (RuntimeException e) {
            observer.answered(tenant, AnswerObserver.Outcome.FAILED, check.removed());
            throw e;
        }
        String rest = check.finish();
        if (!rest.isEmpty()) {
            text.append(rest);
            listener.delta(rest);
        }
        List<AnswerCitation> cited = check.cited().stream().map(n -> context.passages().get(n - 1)).toList();
        observer.answered(tenant, AnswerObserver.Outcome.ANSWERED, check.removed());
        return new Answer(text.toString(), cited, generation.usage(), new Answer.Diagnostics(false, generation.model(),
                context.passages().size(), check.removed(), generation.finishReason() == null ? null : generation.finishReason().name()
                        .toLowerCase(java.util.Locale.ROOT), reports, context.diagnostics()));
    }

    /** The template with {@code {context}} and {@code {question}} replaced in one pass (neither is read again). */
    static String prompt(String template, String context, String question) {
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1).equals("context") ? context : question));
        }
        return m.appendTail(out).toString();
    }

    /** Streams the generation, waiting for its end; an interrupt cancels the model call. */
    private static Generation generate(Generator generator, GenerationRequest request, java.util.function.Consumer<String> deltas) {
        GenerationStream stream = generator.stream(request, deltas);
        try {
            return stream.result().toCompletableFuture().get();
        } catch (InterruptedException e) {
            stream.cancel();
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while the model answered");
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c && c.getCause() != null ? c.getCause() : e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    /** The numbered passages the model will see, and the retrieval's diagnostics. */
    private record Context(ContextBlock block, List<AnswerCitation> passages,
                           io.corpora.engine.retriever.RetrievalDiagnostics diagnostics) {}

    private static Context context(RetrievalResponse response) {
        Map<String, RetrievalResponse.CitedPassage> byId = new HashMap<>();
        response.passages().forEach(p -> byId.put(p.id(), p));
        List<AnswerCitation> numbered = new ArrayList<>();
        for (String id : response.context().includedIds()) {
            RetrievalResponse.CitedPassage p = byId.get(id);
            numbered.add(new AnswerCitation(numbered.size() + 1, p.id(), p.citation().documentId(), p.source(),
                    p.citation().headingPath(), p.text()));
        }
        return new Context(response.context(), numbered, response.diagnostics());
    }

    /**
     * The question and the transforms' queries retrieved as one batch (each under the same access decision), their
     * rankings fused by RRF and cut to the question's top-K, then numbered into one context block.
     */
    private Context fused(AccessDecision access, TenantRuntime runtime, RetrieveCommand question, List<String> extra) {
        List<RetrieveCommand> commands = new ArrayList<>();
        commands.add(question);
        for (String query : extra) {
            commands.add(new RetrieveCommand(query, question.mode(), question.topK(), question.filter(), question.minScore(),
                    question.maxChars(), question.rerank(), question.expandNeighbors(), question.mmrLambda()));
        }
        List<RetrievalResponse> responses = retrieval.retrieveBatch(access, runtime, commands);
        Map<String, RetrievalResponse.CitedPassage> byId = new HashMap<>();
        List<List<String>> rankings = new ArrayList<>();
        for (RetrievalResponse response : responses) {
            rankings.add(response.passages().stream().map(RetrievalResponse.CitedPassage::id).toList());
            response.passages().forEach(p -> byId.putIfAbsent(p.id(), p));
        }
        RetrievalDefaults defaults = runtime.definition().retrieval();
        int topK = question.topK() != null ? question.topK() : defaults.topK();
        List<Passage> passages = new ArrayList<>();
        for (RankFusion.Fused fused : RankFusion.reciprocalRank(rankings)) {
            if (passages.size() == topK) {
                break;
            }
            RetrievalResponse.CitedPassage p = byId.get(fused.id());
            passages.add(new Passage(p.id(), p.text(), fused.score(), p.source(), p.metadata()));
        }
        ContextBlock block = ContextBlock.render(passages, question.maxChars() != null ? question.maxChars() : defaults.maxChars());
        List<AnswerCitation> numbered = new ArrayList<>();
        for (String id : block.includedIds()) {
            RetrievalResponse.CitedPassage p = byId.get(id);
            numbered.add(new AnswerCitation(numbered.size() + 1, p.id(), p.citation().documentId(), p.source(),
                    p.citation().headingPath(), p.text()));
        }
        return new Context(block, numbered, responses.get(0).diagnostics());
    }
}
