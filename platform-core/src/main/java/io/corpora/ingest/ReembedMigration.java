package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.NamespacedChunkIds;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Re-embeds a tenant's corpus with another embedder while the old one keeps serving, then switches atomically: a
 * {@link CorpusMigration} whose new place is a new generation in the same store.
 *
 * <ul>
 *   <li><b>Copy</b>: every document's active-version chunks are read from the store — so chunk boundaries stay exactly
 *       as they are — embedded with the target embedder and written beside the old ones, under ids of the new
 *       generation ({@link NamespacedChunkIds#of(Namespace, String, int, int, String)}) and stamped with the new
 *       {@code _embedder}. Searches filter on the tenant's active fingerprint, so they keep seeing only the old
 *       generation.</li>
 *   <li><b>Switch</b>: one control-plane transaction sets the definition's embedder and the active fingerprint
 *       ({@link TenantRepository#switchEmbedder}); the next query embeds with the new model and sees the new generation.</li>
 *   <li><b>Clean up</b>: after the drain, chunks of any other generation are deleted.</li>
 * </ul>
 * A rollback deletes the new generation.
 */
public final class ReembedMigration extends CorpusMigration<IngestJob.Reembed> {

    private static final Logger LOG = Logger.getLogger(ReembedMigration.class.getName());
    private static final Wording WORDING = new Wording("re-embed migration", "migrated", "re-embedded", "new generation",
            "interrupted by a restart");
    private static final String LEFTOVER = "its chunks are invisible to searches and go with the next migration or index:rebuild";

    /**
     * @param runtimes  builds a runtime for a definition (the target's is not the tenant's yet)
     * @param embedBatchSize how many chunks are embedded at once
     * @param claimWait how long a start waits for ingests in flight to finish
     * @param drain     how long the old generation survives the switch, for queries that read the tenant before it
     * @param stop      the server's stop: a run ends between two documents or batches once it is requested
     */
    public ReembedMigration(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, TenantWriteGate gate,
                            Function<TenantDefinition, TenantRuntime> runtimes, int embedBatchSize, Duration claimWait, Duration drain,
                            GracefulStop stop) {
        super(JobKind.REEMBED, IngestJob::reembed, jobs::createReembed, WORDING, tenants, registry, jobs, gate, runtimes, claimWait, drain,
                embedBatchSize, stop);
    }

    /** The route that starts a migration, for messages that refuse an embedder change. */
    public static String route(String tenantId) {
        return "POST /admin/v1/tenants/" + tenantId + "/embedder:migrate {\"embedder\": {\"provider\": …, \"config\": {…}}}";
    }

    /** The definition with another embedder choice: the migration target (store, partitions, … unchanged). */
    public static TenantDefinition withEmbedder(TenantDefinition d, PluginChoice embedder) {
        return d.withEmbedder(embedder);
    }

    /** The target embedder is built here, so a bad configuration fails at the start (400), not later. */
    @Override
    protected IngestJob.Reembed plan(Tenant tenant, PluginChoice targetEmbedder) {
        String to = runtimes.apply(withEmbedder(tenant.definition(), targetEmbedder)).embedderId();
        if (to.equals(tenant.activeEmbedder())) {
            throw new IngestException(409, "embedder-unchanged", "tenant '" + tenant.id() + "' already carries fingerprint " + to
                    + "; there is nothing to re-embed (a change that keeps the fingerprint is a plain tenant update)");
        }
        return new IngestJob.Reembed(targetEmbedder, tenant.activeEmbedder(), to);
    }

    @Override
    protected String describe(IngestJob.Reembed plan) {
        return plan.fromEmbedder() + " -> " + plan.toEmbedder();
    }

    @Override
    protected Function<Namespace, NamespaceCopy> open(Tenant tenant, IngestJob.Reembed plan) {
        TenantRuntime runtime = target(tenant, plan);
        if (!runtime.embedderId().equals(plan.toEmbedder())) {
            throw new ChangedSinceStart("the target embedder now has fingerprint " + runtime.embedderId() + ", not " + plan.toEmbedder()
                    + " (its model changed since the migration started)");
        }
        return namespace -> {
            IsolationGuard store = new IsolationGuard(runtime.store(), namespace, 1);
            ChunkIndexer indexer = new ChunkIndexer(store, namespace, runtime.embedder(), new HeadingContextualizer());
            return document -> reembed(document, store, indexer, plan);
        };
    }

    @Override
    protected void switchOver(Tenant tenant, IngestJob.Reembed plan) {
        tenants.switchEmbedder(tenant.id(), plan.fromEmbedder(), plan.targetEmbedder(), plan.toEmbedder());
    }

    @Override
    protected boolean switched(Tenant tenant, IngestJob.Reembed plan) {
        return plan.toEmbedder().equals(tenant.activeEmbedder());
    }

    /** Chunks of any generation but the new one. */
    @Override
    protected void removeSource(Tenant tenant, IngestJob.Reembed plan) {
        VectorStore store = runtimes.apply(tenant.definition()).store(); // the tenant's store: a re-embed never moves it
        for (Namespace namespace : tenant.namespaces()) {
            store.deleteWhere(namespace, MetadataFilter.not(MetadataFilter.eq(ReservedKeys.EMBEDDER, plan.toEmbedder())));
        }
    }

    @Override
    protected String removeCopy(Tenant tenant, IngestJob.Reembed plan) {
        VectorStore store = runtimes.apply(tenant.definition()).store();
        int removed = 0;
        for (Namespace namespace : tenant.namespaces()) {
            removed += store.deleteWhere(namespace, MetadataFilter.eq(ReservedKeys.EMBEDDER, plan.toEmbedder()));
        }
        return removed + " new-generation chunks removed";
    }

    @Override
    protected String changedMeanwhile(Tenant tenant, IngestJob.Reembed plan) {
        return Objects.equals(plan.fromEmbedder(), tenant.activeEmbedder()) ? null
                : "the tenant now carries " + tenant.activeEmbedder() + " instead of " + plan.fromEmbedder();
    }

    @Override
    protected String stillServing(IngestJob.Reembed plan) {
        return "; the tenant still serves " + plan.fromEmbedder();
    }

    @Override
    protected String alreadyServing(IngestJob.Reembed plan) {
        return "; the tenant already serves " + plan.toEmbedder() + ", whose generation is kept";
    }

    @Override
    protected String leftoverAdvice(IngestJob.Reembed plan) {
        return LEFTOVER;
    }

    @Override
    protected String removalFailed(IngestJob.Reembed plan, Throwable cause) {
        return "the tenant serves " + plan.toEmbedder() + ", but removing the previous generation failed (" + cause + "); " + LEFTOVER;
    }

    /** The tenant's runtime with the target embedder: the same store, the new model. */
    private TenantRuntime target(Tenant tenant, IngestJob.Reembed plan) {
        return runtimes.apply(withEmbedder(tenant.definition(), plan.targetEmbedder()));
    }

    /** One document's active version into the new generation; skipped when a previous run already completed it. */
    private IngestJob.Outcome reembed(DocumentRecord document, VectorStore store, ChunkIndexer indexer, IngestJob.Reembed target) {
        Namespace namespace = document.namespace();
        if (store.count(namespace, MetadataFilter.and(DocumentCopies.activeVersion(document),
                MetadataFilter.eq(ReservedKeys.EMBEDDER, target.toEmbedder()))) == document.chunkCount()) {
            return DocumentCopies.skipped(document);
        }
        Map<Integer, Chunk> serving = new TreeMap<>();
        for (Chunk chunk : DocumentCopies.servingChunks(store, document, embedder -> target.fromEmbedder() == null
                ? !target.toEmbedder().equals(embedder) : target.fromEmbedder().equals(embedder))) {
            serving.put(chunk.index(), chunk);
        }
        if (serving.size() != document.chunkCount()) {
            return DocumentCopies.incomplete(document, "the store", serving.size(), "migrating");
        }
        int version = document.activeVersion();
        List<Chunk> copies = serving.values().stream().map(c -> copyInto(c, namespace, version, target.toEmbedder())).toList();
        try {
            indexInBatches(indexer, copies); // cut short by a stop: the resumed run re-embeds the document whole
        } catch (StopRequested stopping) {
            throw stopping;
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "re-embedding '" + document.documentId() + "' in " + namespace + " failed", e);
            return DocumentCopies.failed(document, e);
        }
        return DocumentCopies.stored(document, copies.size());
    }

    /** The same chunk (text, headings, metadata, version) under the new generation's id; the indexer stamps {@code _embedder}. */
    private static Chunk copyInto(Chunk chunk, Namespace namespace, int version, String embedderId) {
        Map<String, Object> metadata = new LinkedHashMap<>(chunk.metadata());
        metadata.remove(ReservedKeys.EMBEDDER);
        return new Chunk(NamespacedChunkIds.of(namespace, chunk.documentId(), version, chunk.index(), embedderId), chunk.documentId(),
                chunk.index(), chunk.text(), chunk.headingPath(), metadata);
    }
}
