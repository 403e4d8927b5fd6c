package io.corpora.access;

import io.corpora.answer.Answer;
import io.corpora.answer.AnswerListener;
import io.corpora.answer.AnswerService;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.Tenant;
import io.corpora.ingest.IndexVerifier;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.IngestionService;
import io.corpora.retrieval.RetrievalResponse;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.IsolationGuard;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * What one request may read and change of one tenant: the registry, the jobs and the store as its
 * {@link AccessDecision} lets the actor see them. Data-plane routes hold only this view (an architecture test forbids
 * them the registry, the job repository, the store and the tenant runtime), so a route cannot skip the decision.
 *
 * <p>Everything the actor may not see is treated as absent: documents whose registry metadata the access filter does
 * not match, chunks whose own metadata it does not match, job outcomes of such documents, and jobs of other partitions
 * for a partition-bound token. See {@link AccessDecision} for the rule.
 */
public final class TenantView {

    /** Registry rows examined at most per documents page, so a reader who sees few documents cannot make a page scan everything. */
    public static final int MAX_SCANNED_PER_PAGE = 20_000;
    private static final int SCAN_BATCH = 500;

    private final AccessDecision access;
    private final TenantRuntime runtime;
    private final DocumentRegistry registry;
    private final JobRepository jobs;
    private final RetrievalService retrieval;
    private final IngestionService ingestion;
    private final AnswerService answers;

    public TenantView(AccessDecision access, TenantRuntime runtime, DocumentRegistry registry, JobRepository jobs,
                      RetrievalService retrieval, IngestionService ingestion) {
        this(access, runtime, registry, jobs, retrieval, ingestion, null);
    }

    /** @param answers null where questions are not answered (ask then throws {@link IllegalStateException}) */
    public TenantView(AccessDecision access, TenantRuntime runtime, DocumentRegistry registry, JobRepository jobs,
                      RetrievalService retrieval, IngestionService ingestion, AnswerService answers) {
        this.access = Objects.requireNonNull(access, "access");
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        this.retrieval = Objects.requireNonNull(retrieval, "retrieval");
        this.ingestion = Objects.requireNonNull(ingestion, "ingestion");
        this.answers = answers;
        if (!runtime.tenantId().equals(access.tenant().id())) {
            throw new IllegalStateException("runtime of " + runtime.tenantId() + " cannot serve tenant " + access.tenant().id());
        }
    }

    public AccessDecision access() {
        return access;
    }

    public Tenant tenant() {
        return access.tenant();
    }

    public Namespace namespace() {
        return access.namespace();
    }

    public RetrievalResponse retrieve(RetrieveCommand command) {
        return retrieval.retrieve(access, runtime, command);
    }

    public List<RetrievalResponse> retrieveBatch(List<RetrieveCommand> commands) {
        return retrieval.retrieveBatch(access, runtime, commands);
    }

    /** Whether the tenant has a generator, so {@link #ask} can answer. */
    /**
     * Runs a judged set through this view's retrieval path (its actor, partition and access filter) once per candidate;
     * changes nothing (see {@link io.corpora.retrieval.evaluation.RetrievalEvaluator}).
     */
    public io.corpora.retrieval.evaluation.EvaluationResult evaluate(io.corpora.retrieval.evaluation.JudgedSet set,
            List<io.corpora.retrieval.evaluation.Candidate> candidates, int recallAt, io.corpora.retrieval.evaluation.RetrievalEvaluator.Progress progress) {
        return new io.corpora.retrieval.evaluation.RetrievalEvaluator(retrieval).evaluate(access, runtime, set, candidates, recallAt, progress);
    }

    /** The provider of the store this view reads (part of an evaluation's configuration fingerprint). */
    public String storeProvider() {
        return tenant().definition().store().provider();
    }

    /** Whether the tenant has a generator (whether it starts is not asked: see {@link #requireGenerator()}). */
    public boolean canAnswer() {
        return runtime.generator() != null;
    }

    /**
     * Before an ask does any work: {@link io.corpora.answer.NoGeneratorException} when the tenant has no generator,
     * {@link io.corpora.runtime.PluginCreationException} when its generator cannot be started (it is made by its first
     * call, and this is that call), so neither is found after a retrieval or inside an opened stream.
     */
    public void requireGenerator() {
        if (runtime.generator() == null) {
            throw new io.corpora.answer.NoGeneratorException(tenant().id());
        }
        runtime.generator().modelId();
    }

    /** An answer from the passages this request may see (see {@link AnswerService}), streamed to {@code listener}. */
    public Answer ask(RetrieveCommand question, AnswerListener listener) {
        if (answers == null) {
            throw new IllegalStateException("this view answers no questions");
        }
        return answers.ask(access, runtime, question, listener);
    }

    /** The document, if it exists and the actor may see it (a hidden document is absent, exactly like a missing one). */
    public Optional<DocumentRecord> document(String documentId) {
        return registry.find(namespace(), documentId).filter(this::visible);
    }

    /** One page of documents and the cursor after it (null at the end). */
    public record DocumentPage(List<DocumentRecord> documents, String next) {}

    /**
     * The visible documents matching {@code where}, in id order after {@code afterId}. Hidden documents are skipped and
     * the page still fills up to {@code limit}; {@code next} is set exactly when more matching documents follow — or
     * when {@value #MAX_SCANNED_PER_PAGE} registry rows were examined first, in which case the page may be short and
     * {@code next} continues the scan.
     */
    public DocumentPage documents(String afterId, int limit, Predicate<DocumentRecord> where) {
        List<DocumentRecord> page = new ArrayList<>();
        String cursor = afterId;
        int scanned = 0;
        while (scanned < MAX_SCANNED_PER_PAGE) {
            List<DocumentRecord> batch = registry.list(namespace(), cursor, SCAN_BATCH);
            for (DocumentRecord document : batch) {
                scanned++;
                if (visible(document) && where.test(document)) {
                    if (page.size() == limit) {
                        return new DocumentPage(page, page.get(limit - 1).documentId());
                    }
                    page.add(document);
                }
                cursor = document.documentId();
            }
            if (batch.size() < SCAN_BATCH) {
                return new DocumentPage(page, null);
            }
        }
        return new DocumentPage(page, cursor);
    }

    /**
     * The chunks of a visible document's active version, of the tenant's active embedder generation only (during a
     * re-embed migration the store holds two), each visible by its own metadata; empty when the document is absent or
     * hidden.
     */
    public Optional<List<Chunk>> chunks(String documentId) {
        if (document(documentId).isEmpty()) {
            return Optional.empty();
        }
        Namespace namespace = namespace();
        IsolationGuard guard = new IsolationGuard(runtime.store(), namespace, 1, ids -> registry.activeVersions(namespace, ids));
        String generation = tenant().activeEmbedder();
        return Optional.of(guard.documentChunks(namespace, documentId).stream()
                .filter(c -> guard.belongs(c, generation) && access.canSee(c.metadata())).toList());
    }

    /** Stores a document (see {@link IngestionService#ingest(AccessDecision, TenantRuntime, IngestRequest)}). */
    public IngestJob.Outcome ingest(IngestRequest request) {
        return ingestion.ingest(access, runtime, request);
    }

    /** Deletes a document; false when it is absent or hidden (both answered 404). */
    public boolean delete(String documentId) {
        return ingestion.delete(access, runtime, documentId);
    }

    /**
     * The store's read-your-writes token for this view's namespace: a retrieve carrying it sees every write acknowledged
     * before this call. Empty when the store's searches always see every write (no replicas).
     */
    public Optional<String> consistencyToken() {
        return Optional.ofNullable(runtime.store().consistencyToken(namespace()));
    }

    /** A queued job over this view's namespace, for {@code total} documents. */
    public IngestJob createJob(int total) {
        return jobs.create(namespace(), total);
    }

    /** A queued rebuild job of this view's namespace, for {@code total} documents; one per namespace at a time ({@link JobRepository#createRebuild}). */
    public IngestJob createRebuildJob(int total) {
        return jobs.createRebuild(namespace(), total);
    }

    /** The documents a rebuild re-pushes: the visible ones. */
    public List<String> rebuildable() {
        return ingestion.rebuildable(access);
    }

    public IngestJob.Outcome rebuild(String documentId) {
        return ingestion.rebuild(access, runtime, documentId);
    }

    public int removeOrphans() {
        return ingestion.removeOrphans(access, runtime);
    }

    /** Registry against store, over what the actor may see. */
    public IndexVerifier.Report verify() {
        return IndexVerifier.verify(registry, runtime.store(), namespace(), access::canSee);
    }

    /** Recent jobs the actor may see, newest first, each with its visible outcomes only. */
    public List<IngestJob> jobs(int limit) {
        return jobs.list(tenant().id(), limit).stream().filter(this::jobVisible).map(this::visibleOutcomes).toList();
    }

    /** The job, if the actor may see it (otherwise absent, like a missing one), with its visible outcomes only. */
    public Optional<IngestJob> job(String jobId) {
        return jobs.find(tenant().id(), jobId).filter(this::jobVisible).map(this::visibleOutcomes);
    }

    /**
     * Counts over what the actor may see: every partition of the tenant, or only the one the token is bound to; for a
     * restricted actor only visible documents (and their recorded chunks and bytes), counted by reading the registry's
     * rows without their bodies, a page at a time.
     */
    public DocumentRegistry.CorpusStats stats() {
        if (access.unrestricted()) {
            return access.allPartitions() ? registry.stats(tenant().id()) : registry.stats(namespace());
        }
        List<Namespace> namespaces = access.allPartitions() ? tenant().namespaces() : List.of(namespace());
        long documents = 0;
        long chunks = 0;
        long bytes = 0;
        Map<String, Long> byPartition = new TreeMap<>();
        Map<String, Long> byStatus = new TreeMap<>();
        for (Namespace namespace : namespaces) {
            for (DocumentRecord document : registry.all(namespace)) {
                if (!visible(document)) {
                    continue;
                }
                if (document.activeVersion() > 0) {
                    documents++;
                    chunks += document.chunkCount();
                    bytes += document.bytes();
                }
                byPartition.merge(namespace.partitionKey(), 1L, Long::sum);
                byStatus.merge(document.status().name(), 1L, Long::sum);
            }
        }
        return new DocumentRegistry.CorpusStats(documents, chunks, bytes, byPartition, byStatus);
    }

    private boolean visible(DocumentRecord document) {
        return access.canSee(document.metadata());
    }

    /** A partition-bound token sees its partition's jobs only; tenant-wide jobs (partition null) need an unbound token. */
    private boolean jobVisible(IngestJob job) {
        return access.allPartitions() || Objects.equals(job.partition(), access.boundPartition());
    }

    /**
     * Removes the outcomes of documents the actor may not see (now absent from the registry, or hidden), and counts
     * what is left: {@code succeeded}, {@code skipped} and {@code failed} count the outcomes shown, {@code total} those
     * plus the documents not processed yet. An unrestricted actor sees the job as recorded. A tenant-wide job's
     * outcomes are all removed for a restricted actor (they name no namespace to judge them in), and so is its reason:
     * a migration's names the document it could not copy, whoever may see it.
     */
    private IngestJob visibleOutcomes(IngestJob job) {
        if (access.unrestricted()) {
            return job;
        }
        IngestJob shown = job.outcomes().isEmpty() ? job : withVisibleOutcomes(job);
        if (shown.partition() == null && shown.error() != null) {
            return new IngestJob(shown.id(), shown.tenant(), null, shown.kind(), shown.status(), shown.total(), shown.succeeded(),
                    shown.skipped(), shown.failed(), shown.outcomes(), shown.reembed(), shown.relocate(), HIDDEN_REASON,
                    shown.created(), shown.updated());
        }
        return shown;
    }

    /** What a restricted actor reads instead of a tenant-wide job's reason. */
    static final String HIDDEN_REASON = "withheld: a tenant-wide job's reason may name documents this token may not see; read it"
            + " with a token the tenant's access rules do not restrict, or through the admin API";

    private IngestJob withVisibleOutcomes(IngestJob job) {
        Set<String> visibleIds = job.partition() == null ? Set.of() : visibleDocumentIds(Namespace.of(job.tenant(), job.partition()),
                job.outcomes().stream().map(IngestJob.Outcome::documentId).filter(Objects::nonNull).toList());
        List<IngestJob.Outcome> shown = job.outcomes().stream().filter(o -> visibleIds.contains(o.documentId())).toList();
        if (shown.size() == job.outcomes().size()) {
            return job;
        }
        int hidden = job.outcomes().size() - shown.size();
        int succeeded = count(shown, "stored");
        int skipped = count(shown, "skipped");
        int failed = count(shown, "failed");
        return new IngestJob(job.id(), job.tenant(), job.partition(), job.kind(), job.status(), Math.max(0, job.total() - hidden),
                succeeded, skipped, failed, shown, job.reembed(), job.relocate(), job.error(), job.created(), job.updated());
    }

    private Set<String> visibleDocumentIds(Namespace namespace, List<String> documentIds) {
        Set<String> visible = new java.util.HashSet<>();
        for (DocumentRecord document : registry.findAll(namespace, documentIds)) {
            if (visible(document)) {
                visible.add(document.documentId());
            }
        }
        return Collections.unmodifiableSet(visible);
    }

    private static int count(List<IngestJob.Outcome> outcomes, String result) {
        return (int) outcomes.stream().filter(o -> result.equals(o.result())).count();
    }
}
