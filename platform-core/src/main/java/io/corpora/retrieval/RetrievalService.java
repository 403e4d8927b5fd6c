package io.corpora.retrieval;

import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.Tenant;
import io.corpora.engine.retriever.ContextBlock;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.engine.retriever.HybridRetriever;
import io.corpora.engine.retriever.IsolationReport;
import io.corpora.engine.retriever.KeywordRetriever;
import io.corpora.engine.retriever.MmrRetriever;
import io.corpora.engine.retriever.NeighborWindowExpander;
import io.corpora.engine.retriever.PassageKeys;
import io.corpora.engine.retriever.RerankingRetriever;
import io.corpora.engine.retriever.RetrievalDiagnostics;
import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.RetrieveOptions;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.IsolationGuard;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * One retrieval for one actor in one namespace. The order of operations is the isolation argument:
 * the request's {@link AccessDecision} is made first (a failing hook stops everything before the store is touched) and
 * its access filter, narrowed by the request's, is the filter of every store call and of neighbour expansion; the retriever is
 * composed per request over an {@link IsolationGuard} bound to the namespace; every passage is checked once more
 * before it leaves; reserved keys are removed from what the caller sees.
 */
public final class RetrievalService {

    private static final Logger LOG = Logger.getLogger(RetrievalService.class.getName());

    private final ActiveVersions activeVersions;
    private final int overFetch;
    private final java.util.concurrent.Executor legThreads;
    private final Set<String> warnedEmpty = ConcurrentHashMap.newKeySet();

    /** Document id → active version, for the given ids of one namespace (the registry answers it). */
    @FunctionalInterface
    public interface ActiveVersions {
        Map<String, Integer> of(Namespace namespace, java.util.Collection<String> documentIds);
    }

    public RetrievalService(ActiveVersions activeVersions, int overFetch) {
        this(activeVersions, overFetch, null);
    }

    /**
     * @param legThreads where a hybrid retrieval's vector leg embeds the query and calls the store while its keyword leg
     *                   runs on the caller's thread (threads needing no container context: the isolation guard's checks,
     *                   which read the control plane, run on the caller's thread when it takes the leg's hits); null runs
     *                   the legs one after the other
     */
    public RetrievalService(ActiveVersions activeVersions, int overFetch, java.util.concurrent.Executor legThreads) {
        this.activeVersions = Objects.requireNonNull(activeVersions, "activeVersions");
        this.overFetch = overFetch;
        this.legThreads = legThreads;
    }

    public RetrievalResponse retrieve(AccessDecision access, TenantRuntime runtime, RetrieveCommand command) {
        return retrieve(access, runtime, command, null);
    }

    /**
     * A retrieval whose hybrid fusion is {@code fusion} instead of the tenant's configured one (null: the tenant's):
     * how an evaluation measures a candidate configuration on the tenant's real path without changing its config.
     */
    public RetrievalResponse retrieve(AccessDecision access, TenantRuntime runtime, RetrieveCommand command, FusionSpec fusion) {
        Tenant tenant = access.tenant();
        Namespace namespace = access.namespace();
        if (!tenant.id().equals(runtime.tenantId())) {
            throw new IllegalStateException("runtime of " + runtime.tenantId() + " cannot serve " + namespace);
        }
        MetadataFilter filter = access.narrowedBy(command.filter());
        RetrievalDefaults defaults = tenant.definition().retrieval();
        String mode = command.mode() != null ? command.mode() : defaults.mode();
        RetrieveOptions options = new RetrieveOptions(command.topK() != null ? command.topK() : defaults.topK(), filter,
                defaults.minScoreFor(mode, command.minScore()), command.maxChars() != null ? command.maxChars() : defaults.maxChars(),
                command.consistencyToken());
        String activeEmbedder = tenant.activeEmbedder();
        if (activeEmbedder == null) {
            return empty(namespace, runtime.embedderId());
        }
        if (!activeEmbedder.equals(runtime.embedderId())) {
            throw new EmbedderMismatchException("tenant '" + tenant.id() + "' holds chunks embedded by " + activeEmbedder
                    + " but its configured embedder is " + runtime.embedderId() + "; queries would compare incomparable vectors");
        }

        IsolationGuard guard = new IsolationGuard(runtime.store(), namespace, overFetch, ids -> activeVersions.of(namespace, ids));
        boolean rerank = command.rerank() != null ? command.rerank() : defaults.rerank();
        Retriever retriever = compose(mode, rerank, command, runtime, guard, namespace, activeEmbedder,
                fusion != null ? fusion : defaults.fusion());
        RetrievalResult result = retriever.retrieve(command.query(), options);

        List<Passage> verified = new ArrayList<>();
        int rejectedAtExit = 0;
        for (Passage passage : result.passages()) {
            if (stampedFor(passage, namespace)) {
                verified.add(passage);
            } else {
                rejectedAtExit++;
            }
        }
        RetrievalDiagnostics diagnostics = result.diagnostics().withIsolation(guard.report().afterFinalCheck(rejectedAtExit, verified.size()));
        if (verified.isEmpty()) {
            boolean corpusEmpty = guard.count(namespace, MetadataFilter.all()) == 0;
            diagnostics = diagnostics.withCorpusEmpty(corpusEmpty);
            if (corpusEmpty && warnedEmpty.add(namespace.key())) {
                LOG.warning("retrieval on empty namespace " + namespace + " (no chunks stored)");
            }
        } else {
            diagnostics = diagnostics.withCorpusEmpty(false);
            warnedEmpty.remove(namespace.key());
        }
        return respond(verified, options.maxChars(), diagnostics);
    }

    /**
     * Several retrievals for one actor in one namespace, answered in order; their queries are embedded in one call
     * (when any uses the vector leg). Each is isolated and verified exactly like a single retrieval.
     */
    public List<RetrievalResponse> retrieveBatch(AccessDecision access, TenantRuntime runtime, List<RetrieveCommand> commands) {
        if (commands.isEmpty()) {
            throw new IllegalArgumentException("a batch needs at least one query");
        }
        TenantRuntime batch = runtime.withEmbedder(
                new PrecomputedQueries(runtime.embedder(), commands.stream().map(RetrieveCommand::query).toList()));
        List<RetrievalResponse> responses = new ArrayList<>();
        for (RetrieveCommand command : commands) {
            responses.add(retrieve(access, batch, command));
        }
        return responses;
    }

    private Retriever compose(String mode, boolean rerank, RetrieveCommand command, TenantRuntime runtime, IsolationGuard guard,
                              Namespace namespace, String embedderId, FusionSpec fusion) {
        Retriever retriever = switch (mode) {
            case "vector" -> {
                VectorRetriever vector = new VectorRetriever(guard, namespace, runtime.embedder(), embedderId, legThreads);
                yield command.mmrLambda() != null ? new MmrRetriever(vector, command.mmrLambda(), RerankingRetriever.DEFAULT_FETCH_TOP_K) : vector;
            }
            case "keyword" -> new KeywordRetriever(guard, namespace, embedderId);
            case "hybrid" -> HybridRetriever.overStore(fusion, guard, namespace, runtime.embedder(), embedderId, legThreads);
            default -> throw new IllegalArgumentException("mode must be vector, keyword or hybrid, got '" + mode + "'");
        };
        if (command.mmrLambda() != null && !mode.equals("vector")) {
            throw new IllegalArgumentException("mmr needs mode vector (it selects among candidates by their embeddings)");
        }
        if (rerank) {
            if (runtime.reranker() == null) {
                throw new IllegalArgumentException("rerank was requested but tenant '" + runtime.tenantId() + "' has no reranker configured");
            }
            retriever = new RerankingRetriever(retriever, runtime.reranker());
        }
        if (command.expandNeighbors() > 0) {
            retriever = new NeighborWindowExpander(retriever, guard, namespace, command.expandNeighbors());
        }
        return retriever;
    }

    private static boolean stampedFor(Passage passage, Namespace namespace) {
        return namespace.tenant().equals(passage.metadata().get(ReservedKeys.TENANT))
                && namespace.partitionKey().equals(passage.metadata().get(ReservedKeys.PARTITION));
    }

    private RetrievalResponse empty(Namespace namespace, String embedderId) {
        if (warnedEmpty.add(namespace.key())) {
            LOG.warning("retrieval on empty namespace " + namespace + " (nothing ingested yet)");
        }
        RetrievalDiagnostics diagnostics = new RetrievalDiagnostics(List.of(), 0, 0, 0, embedderId, List.of(), false, null, List.of(),
                new IsolationReport(0, 0, 0, false), true);
        return new RetrievalResponse(List.of(), ContextBlock.render(List.of(), null), diagnostics);
    }

    private static RetrievalResponse respond(List<Passage> passages, Integer maxChars, RetrievalDiagnostics diagnostics) {
        ContextBlock context = ContextBlock.render(passages, maxChars);
        List<RetrievalResponse.CitedPassage> cited = new ArrayList<>();
        for (Passage p : passages) {
            Map<String, Object> visible = io.corpora.spi.Metadata.withoutReserved(p.metadata());
            Object chunkIndex = p.metadata().get(PassageKeys.CHUNK_INDEX);
            Object headingPath = p.metadata().get(PassageKeys.HEADING_PATH);
            RetrievalResponse.Citation citation = new RetrievalResponse.Citation(context.includedIds().indexOf(p.id()) + 1,
                    String.valueOf(p.metadata().get(ReservedKeys.DOCUMENT)), chunkIndex instanceof Number n ? n.intValue() : -1,
                    p.source(), headingPath instanceof List<?> list ? list.stream().map(String::valueOf).toList() : List.of(),
                    p.metadata().get("page"));
            cited.add(new RetrievalResponse.CitedPassage(p.id(), p.text(), p.score(), p.source(), visible, citation));
        }
        return new RetrievalResponse(cited, context, diagnostics);
    }

    /** The tenant's chunks were embedded by another embedder than the one configured now. */
    public static final class EmbedderMismatchException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public EmbedderMismatchException(String message) {
            super(message);
        }
    }
}
