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
import io.corpora.runtime.PluginCreationException;
import io.corpora.runtime.StoreLocation;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.IsolationGuard;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Moves a tenant's corpus to another store configuration (another database, a dedicated table, another store plugin)
 * while the current store keeps serving, then switches atomically: a {@link CorpusMigration} with the same embedder and
 * another store.
 *
 * <ul>
 *   <li><b>Start</b>: the job records both store choices. While it is open every server refuses the tenant's version
 *       activations and document deletes (409 {@code migration-in-progress}): writes are refused, not written twice, because the refusal is
 *       already enforced in the control plane on every server, while a double write would need every server's write
 *       path to know of two stores and to order its writes against the copy.</li>
 *   <li><b>Copy</b>: every namespace's active-version chunks are read from the source — ids, text, headings and
 *       metadata, including the embedder fingerprint — with their stored vectors
 *       ({@link VectorStore#storedVectors}), and written to the target under the same ids. A source that cannot return
 *       its vectors has the chunk texts embedded again by the tenant's (unchanged) embedder.</li>
 *   <li><b>Switch</b>: one control-plane transaction points the tenant's store at the target
 *       ({@link TenantRepository#switchStore}); every server reads it on its next request.</li>
 *   <li><b>Drain and delete</b>: the tenant's data in the source is deleted and the source releases what it holds open
 *       for the tenant.</li>
 * </ul>
 * A rollback deletes the target copy.
 */
public final class StoreRelocation extends CorpusMigration<IngestJob.Relocate> {

    private static final Logger LOG = Logger.getLogger(StoreRelocation.class.getName());
    private static final Wording WORDING = new Wording("store relocation", "relocated", "copied", "target copy", "interrupted");

    private final Function<PluginChoice, StoreLocation> locations;
    private final HeadingContextualizer contextualizer = new HeadingContextualizer();

    /**
     * @param runtimes  builds a runtime for a definition (the target's is not the tenant's yet)
     * @param locations where a store choice keeps its data (two choices of one location are one copy)
     * @param claimWait how long a start waits for ingests in flight to finish
     * @param drain     how long the source copy survives the switch, for reads that started before it
     * @param embedBatchSize how many chunks are embedded at once when the source cannot return its vectors
     * @param stop      the server's stop: a run ends between two documents, or two batches of one it embeds again, once
     *                  it is requested
     */
    public StoreRelocation(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, TenantWriteGate gate,
                           Function<TenantDefinition, TenantRuntime> runtimes, Function<PluginChoice, StoreLocation> locations,
                           Duration claimWait, Duration drain, int embedBatchSize, GracefulStop stop) {
        super(JobKind.RELOCATE, IngestJob::relocate, jobs::createRelocation, WORDING, tenants, registry, jobs, gate, runtimes, claimWait, drain,
                embedBatchSize, stop);
        this.locations = Objects.requireNonNull(locations, "locations");
    }

    @Override
    protected IngestJob.Relocate plan(Tenant tenant, PluginChoice targetStore) {
        PluginChoice current = tenant.definition().store();
        if (locations.apply(current).equals(locations.apply(targetStore))) {
            throw new IngestException(409, "store-unchanged", "tenant '" + tenant.id() + "' already keeps its chunks at this "
                    + targetStore.provider() + " location; there is nothing to move (a change of options that are not the"
                    + " store's location is a plain tenant update)");
        }
        return new IngestJob.Relocate(current, targetStore);
    }

    /** The target store is opened here, so an unreachable or misconfigured one fails at the start, not later. */
    @Override
    protected void checkTarget(Tenant tenant, PluginChoice targetStore) {
        long targetHolds;
        try {
            VectorStore target = runtimes.apply(tenant.definition().withStore(targetStore)).store();
            target.checkHealth();
            targetHolds = chunksOf(tenant, target);
        } catch (RuntimeException e) {
            // The admin chose the target: the plugin's own words (its host, its table) are theirs to read.
            String reason = e instanceof PluginCreationException created ? created.detailForOperator() : e.getMessage();
            throw new IngestException(400, "store-unavailable", "the target " + targetStore.provider() + " store cannot be opened: "
                    + reason, e);
        }
        if (targetHolds > 0) {
            // Option strings that differ can still name the same data (a jdbcUrl with another parameter or host alias):
            // the copy would skip everything, and deleting the "source" afterwards would delete the only copy.
            throw new IngestException(409, "target-not-empty", "the target " + targetStore.provider() + " store already holds "
                    + targetHolds + " chunks of tenant '" + tenant.id() + "': it is the tenant's current store under another"
                    + " spelling, or the leftover of an earlier relocation; delete the tenant's data there by hand before relocating to it");
        }
    }

    @Override
    protected String describe(IngestJob.Relocate plan) {
        return plan.fromStore().provider() + " -> " + plan.targetStore().provider();
    }

    @Override
    protected Function<Namespace, NamespaceCopy> open(Tenant tenant, IngestJob.Relocate stores) {
        if (!tenant.definition().store().equals(stores.fromStore())) {
            throw new ChangedSinceStart("the tenant's store configuration changed since the relocation started");
        }
        TenantRuntime source = runtimes.apply(tenant.definition());
        TenantRuntime target = runtimes.apply(tenant.definition().withStore(stores.targetStore()));
        return namespace -> {
            VectorStore from = new IsolationGuard(source.store(), namespace, 1);
            VectorStore to = new IsolationGuard(target.store(), namespace, 1);
            return document -> copy(document, tenant.activeEmbedder(), from, to, target);
        };
    }

    @Override
    protected void switchOver(Tenant tenant, IngestJob.Relocate stores) {
        tenants.switchStore(tenant.id(), stores.fromStore(), stores.targetStore());
    }

    @Override
    protected boolean switched(Tenant tenant, IngestJob.Relocate stores) {
        return tenant.definition().store().equals(stores.targetStore());
    }

    @Override
    protected void removeSource(Tenant tenant, IngestJob.Relocate stores) {
        deleteTenantData(tenant, runtimes.apply(tenant.definition().withStore(stores.fromStore())).store());
    }

    @Override
    protected String removeCopy(Tenant tenant, IngestJob.Relocate stores) {
        deleteTenantData(tenant, runtimes.apply(tenant.definition().withStore(stores.targetStore())).store());
        return "target copy deleted";
    }

    @Override
    protected String changedMeanwhile(Tenant tenant, IngestJob.Relocate stores) {
        return tenant.definition().store().equals(stores.fromStore()) ? null : "the tenant's store configuration changed meanwhile";
    }

    @Override
    protected String stillServing(IngestJob.Relocate stores) {
        return "; the tenant still serves from its " + stores.fromStore().provider() + " store";
    }

    @Override
    protected String alreadyServing(IngestJob.Relocate stores) {
        return "; the tenant already serves from its " + stores.targetStore().provider() + " store, which is kept: delete its"
                + " data from the " + stores.fromStore().provider() + " store by hand";
    }

    @Override
    protected String leftoverAdvice(IngestJob.Relocate stores) {
        return "delete the tenant's data from the target " + stores.targetStore().provider() + " store by hand before relocating there again";
    }

    @Override
    protected String removalFailed(IngestJob.Relocate stores, Throwable cause) {
        return "the tenant serves from its new store, but deleting the source copy failed (" + cause
                + "); delete the tenant's data from the " + stores.fromStore().provider() + " store by hand";
    }

    /** How many chunks {@code store} holds of the tenant, over all its namespaces. */
    private static long chunksOf(Tenant tenant, VectorStore store) {
        long chunks = 0;
        for (Namespace namespace : tenant.namespaces()) {
            chunks += store.count(namespace, MetadataFilter.all());
        }
        return chunks;
    }

    /** One document's active version, with its vectors, into the target; skipped when the target holds it already. */
    private IngestJob.Outcome copy(DocumentRecord document, String activeEmbedder, VectorStore from, VectorStore to, TenantRuntime target) {
        Namespace namespace = document.namespace();
        try {
            if (to.count(namespace, DocumentCopies.activeVersion(document)) == document.chunkCount()) {
                return DocumentCopies.skipped(document);
            }
            List<Chunk> chunks = DocumentCopies.servingChunks(from, document,
                    embedder -> activeEmbedder == null || activeEmbedder.equals(embedder));
            if (chunks.size() != document.chunkCount()) {
                return DocumentCopies.incomplete(document, "the source store", chunks.size(), "relocating");
            }
            List<EmbeddedChunk> copies = withStoredVectors(chunks, activeEmbedder, from, namespace);
            if (copies != null) {
                to.upsert(namespace, copies);
            } else {
                if (!Objects.equals(target.embedderId(), activeEmbedder)) {
                    return DocumentCopies.failed(document, 409, "embedder-mismatch", "the source store cannot return its vectors and"
                            + " the tenant's embedder now has fingerprint " + target.embedderId() + ", not " + activeEmbedder);
                }
                LOG.fine("the source store returned no vectors for '" + document.documentId() + "'; embedding its chunks again");
                indexInBatches(new ChunkIndexer(to, namespace, target.embedder(), contextualizer), chunks);
            }
            return DocumentCopies.stored(document, chunks.size());
        } catch (StopRequested stopping) {
            throw stopping; // a document cut short between two batches is copied again whole by the resumed run
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "copying '" + document.documentId() + "' in " + namespace + " failed", e);
            return DocumentCopies.failed(document, e);
        }
    }

    /**
     * The chunks with the vectors the source stored for them, or null when the source cannot return them all (the
     * caller embeds again). A keyword-only corpus (no active embedder) has no vectors to copy.
     */
    private List<EmbeddedChunk> withStoredVectors(List<Chunk> chunks, String activeEmbedder, VectorStore from, Namespace namespace) {
        if (activeEmbedder == null) {
            return chunks.stream().map(c -> contextualizer.embedded(c, null)).toList();
        }
        Optional<Map<String, float[]>> vectors = from.storedVectors(namespace, chunks.stream().map(Chunk::id).toList());
        if (vectors.isEmpty() || !vectors.get().keySet().containsAll(chunks.stream().map(Chunk::id).toList())) {
            return null;
        }
        return chunks.stream().map(c -> contextualizer.embedded(c, vectors.get().get(c.id()))).toList();
    }

    /** Everything {@code store} holds of the tenant, in every partition, then whatever it holds open for it. */
    private static void deleteTenantData(Tenant tenant, VectorStore store) {
        if (!store.deleteTenant(tenant.id())) {
            for (Namespace namespace : tenant.namespaces()) {
                store.deleteNamespace(namespace);
            }
        }
        store.releaseTenant(tenant.id());
    }
}
