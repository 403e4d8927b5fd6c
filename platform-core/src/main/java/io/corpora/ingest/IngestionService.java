package io.corpora.ingest;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.engine.chunk.Chunkers;
import io.corpora.engine.chunk.DocumentDeadline;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.engine.retriever.PassageKeys;
import io.corpora.runtime.TenantRuntime;
import io.corpora.runtime.guard.PluginUnavailableException;
import io.corpora.spi.Chunk;
import io.corpora.spi.Metadata;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.ReservedKeyStamper;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

/**
 * Ingests one document into a namespace, atomically: loader → chunker → stamping → contextualize/embed/write as a
 * <b>new version</b> → registry switch → older versions removed. Until the switch the previous version is the one
 * retrieval serves (the isolation guard drops chunks of non-active versions), and any failure removes what the new
 * version wrote and leaves the previous one untouched. Loading, chunking and contextualizing run under one deadline per
 * document ({@link IngestLimits#processingTimeout()}, started with the loader call): a document that takes longer fails
 * alone (422 {@code processing-timeout}) instead of holding a thread.
 */
public final class IngestionService {

    private static final Logger LOG = Logger.getLogger(IngestionService.class.getName());

    private final DocumentRegistry registry;
    private final TenantRepository tenants;
    private final DocumentLoaders loaders;
    private final IngestLimits limits;
    private final TenantWriteGate writeGate = new TenantWriteGate();
    private final QuotaReservations quotaReservations = new QuotaReservations();
    private final IngestListener listener;
    private final LoaderGuard loaderGuard;
    private final LongSupplier nanoClock;

    /** Puts a tenant's loader calls behind that tenant's guard (timeouts, bulkhead); identity when there is none. */
    @FunctionalInterface
    public interface LoaderGuard {
        DocumentLoader guard(String tenantId, String provider, DocumentLoader loader);

        LoaderGuard NONE = (tenantId, provider, loader) -> loader;
    }

    /** Told about each document version stored (for throughput metrics); must be cheap and must not throw. */
    @FunctionalInterface
    public interface IngestListener {
        void stored(String tenantId, int chunks);

        IngestListener NONE = (tenantId, chunks) -> {};
    }

    public IngestionService(DocumentRegistry registry, TenantRepository tenants, DocumentLoaders loaders, IngestLimits limits,
                            IngestListener listener, LoaderGuard loaderGuard) {
        this(registry, tenants, loaders, limits, listener, loaderGuard, System::nanoTime);
    }

    /** @param nanoClock the clock of the documents' deadlines (injected so a test steps time instead of sleeping) */
    public IngestionService(DocumentRegistry registry, TenantRepository tenants, DocumentLoaders loaders, IngestLimits limits,
                            IngestListener listener, LoaderGuard loaderGuard, LongSupplier nanoClock) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tenants = Objects.requireNonNull(tenants, "tenants");
        this.loaders = Objects.requireNonNull(loaders, "loaders");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.listener = Objects.requireNonNull(listener, "listener");
        this.loaderGuard = Objects.requireNonNull(loaderGuard, "loaderGuard");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
    }

    /** Ingests, deletes and rebuilds pass this gate; a re-embed migration claims it for its tenant. */
    public TenantWriteGate writeGate() {
        return writeGate;
    }

    /**
     * Stores a caller's document in the decision's namespace. A writer may store documents it will not see itself
     * (e.g. for a group it is not in), but may not replace one it cannot see: that is refused with 403
     * {@code document-not-visible}, before it is compared or written, so neither the version number nor the
     * deduplication answer ("unchanged") tells it anything about the hidden document but that its id is taken.
     */
    public IngestJob.Outcome ingest(AccessDecision access, TenantRuntime runtime, IngestRequest request) {
        return ingest(access.tenant(), runtime, access.namespace(), request, false, access);
    }

    /**
     * @param force  write a new version even when the content is unchanged (rebuilds after store loss or migration)
     * @param access the writer's decision, or null for a rebuild (the server re-pushing what is registered)
     */
    private IngestJob.Outcome ingest(Tenant tenant, TenantRuntime runtime, Namespace namespace, IngestRequest request, boolean force,
                                     AccessDecision access) {
        requireNamespaceOf(tenant, namespace);
        return writeGate.write(tenant.id(), () -> store(tenant, runtime, namespace, request, force, access));
    }

    /**
     * Refuses, before anything is loaded or stored, what the caller must fix: metadata that is not storable (a 400
     * {@link IllegalArgumentException}) or over the limits (400 {@code metadata-too-large}). The REST layer calls it for
     * every document of a batch before accepting the batch; every ingest calls it again.
     */
    public void validate(IngestRequest request) {
        DocumentMetadata.requireWithin(Metadata.withoutReserved(request.metadata()), limits,
                "document '" + request.documentId() + "' has metadata");
    }

    private IngestJob.Outcome store(Tenant tenant, TenantRuntime runtime, Namespace namespace, IngestRequest request, boolean force,
                                    AccessDecision access) {
        validate(request);
        String embedderId = requireMatchingEmbedder(tenant, runtime);
        if (request.content().length > limits.maxDocumentBytes()) {
            throw new IngestException(413, "document-too-large", "document '" + request.documentId() + "' is "
                    + request.content().length + " bytes; the limit is " + limits.maxDocumentBytes());
        }
        DocumentDeadline deadline = DocumentDeadline.start(limits.processingTimeout(), nanoClock);
        LoadedDocument loaded = withCallerMetadata(load(tenant, request), request.metadata(), request.source());
        requireStorable(request.documentId(), loaded);
        String contentHash = ContentFingerprint.of(loaded, request.source(), runtime.chunking(), embedderId);

        DocumentRecord existing = registry.find(namespace, request.documentId()).orElse(null);
        if (existing != null && access != null && !access.canSee(existing.metadata())) {
            throw new IngestException(403, "document-not-visible", "a document with id '" + request.documentId()
                    + "' exists in this namespace and this token may not see it, so it may not replace it");
        }
        if (!force && existing != null && existing.activeVersion() > 0 && existing.status() == DocumentStatus.ACTIVE
                && contentHash.equals(existing.contentHash())) {
            return new IngestJob.Outcome(request.documentId(), "skipped", existing.activeVersion(), existing.chunkCount(), 200, null);
        }

        List<Chunk> chunks;
        List<String> indexTexts;
        try {
            deadline.check("computing its content fingerprint");
            chunks = new Chunkers(runtime.chunking(), deadline).chunk(request.documentId(), loaded);
            indexTexts = contextualize(chunks, deadline);
        } catch (DocumentDeadline.Exceeded e) {
            throw new IngestException(422, "processing-timeout", "document '" + request.documentId() + "' " + e.getMessage()
                    + " (loading, chunking and contextualizing share the loader's timeout, corpora.ft.loader.timeout); split it"
                    + " into smaller documents. The previous version, if any, is unchanged", e);
        } catch (DocumentLoadException e) {
            // Front matter the chunker reads (a Markdown text no Markdown loader split) is refused as a loader refuses it.
            throw new IngestException(e.reason() == DocumentLoadException.Reason.TOO_LARGE ? 413 : 422, "unreadable-document",
                    "document '" + request.documentId() + "' cannot be read: " + e.getMessage(), e);
        }
        if (chunks.size() > limits.maxChunksPerDocument()) {
            throw new IngestException(413, "too-many-chunks", "document '" + request.documentId() + "' makes " + chunks.size()
                    + " chunks; the limit is " + limits.maxChunksPerDocument());
        }
        long chargedBytes = chargedBytes(request, chunks);
        // Checked against the stored totals plus the documents of this tenant in flight, so a job's documents may be
        // written in parallel without overshooting the quota together.
        QuotaReservations.Growth growth = existing == null ? new QuotaReservations.Growth(1, chunks.size(), chargedBytes)
                : new QuotaReservations.Growth(0, chunks.size() - existing.chunkCount(), chargedBytes - existing.bytes());
        try (QuotaReservations.Reservation reserved = quotaReservations.reserve(tenant.id(), tenant.definition().quotas(),
                () -> registry.totals(tenant.id()), growth)) {
            return storeVersion(tenant, runtime, namespace, request, loaded, chunks, indexTexts, contentHash, embedderId, chargedBytes, reserved);
        }
    }

    /** Writes the document as a new version (begun, chunks written, activated), then removes older versions' chunks. */
    private IngestJob.Outcome storeVersion(Tenant tenant, TenantRuntime runtime, Namespace namespace, IngestRequest request, LoadedDocument loaded,
                                           List<Chunk> chunks, List<String> indexTexts, String contentHash, String embedderId, long chargedBytes,
                                           QuotaReservations.Reservation reserved) {
        DocumentDescription description = new DocumentDescription(request.source(), request.mediaType(), loaded.metadata(),
                chargedBytes);
        int version;
        try {
            version = registry.beginVersion(namespace, request.documentId(), description.source(), description.mediaType(),
                    description.metadata(), description.bytes());
        } catch (WriteRefusedException refused) {
            throw conflict(request.documentId(), refused);
        }
        IsolationGuard store = new IsolationGuard(runtime.store(), namespace, 1);
        try {
            List<Chunk> stamped = ReservedKeyStamper.stampAll(chunks, namespace, request.documentId(), version);
            ChunkIndexer indexer = new ChunkIndexer(store, namespace, runtime.embedder(), new HeadingContextualizer());
            for (int from = 0; from < stamped.size(); from += limits.embedBatchSize()) {
                int to = Math.min(stamped.size(), from + limits.embedBatchSize());
                indexer.index(stamped.subList(from, to), indexTexts.subList(from, to));
            }
            if (tenant.activeEmbedder() == null) {
                try {
                    tenants.setActiveEmbedder(tenant.id(), embedderId);
                } catch (NoSuchElementException gone) { // purged while its first documents were written
                    throw new WriteRefusedException(WriteRefusedException.Reason.TENANT_GONE, "tenant '" + tenant.id()
                            + "' was deleted while it was written");
                }
            }
            reserved.settle(() -> registry.activateVersion(namespace, request.documentId(), version, contentHash, stamped.size(), fullText(loaded),
                    description, embedderId, tenant.definition().store()));
        } catch (RuntimeException e) {
            discardVersion(store, namespace, request.documentId(), version, e);
            if (e instanceof WriteRefusedException refused) {
                throw conflict(request.documentId(), refused);
            }
            if (e instanceof PluginUnavailableException unavailable) {
                throw new IngestException(503, "plugin-unavailable", "document '" + request.documentId() + "' could not be stored: "
                        + unavailable.getMessage() + "; the previous version, if any, is unchanged", unavailable);
            }
            throw e instanceof IngestException ? e : new IngestException(500, "ingest-failed",
                    "document '" + request.documentId() + "' could not be stored (" + e.getClass().getSimpleName()
                            + "); the previous version, if any, is unchanged", e);
        }
        // The new version serves from here; chunks of older versions are now invisible and can go. If that fails, the
        // registry's cleanup marker stays set and the next restart removes them: the new version is stored either way.
        if (version > 1) {
            try {
                SupersededChunks.remove(store, registry, namespace, request.documentId(), version);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "'" + request.documentId() + "' v" + version + " in " + namespace
                        + " is stored, but its older versions' chunks could not be removed yet; a restart will", e);
            }
        }
        listener.stored(tenant.id(), chunks.size());
        return new IngestJob.Outcome(request.documentId(), "stored", version, chunks.size(), 201, null);
    }

    /** The control plane's refusal to begin or activate a version, as the 409 its caller can act on. */
    private static IngestException conflict(String documentId, WriteRefusedException refused) {
        String notStored = "document '" + documentId + "' was not stored: ";
        return switch (refused.reason()) {
            case MIGRATION_IN_PROGRESS -> new IngestException(409, "migration-in-progress", notStored + refused.getMessage()
                    + "; the previous version, if any, is unchanged", refused).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
            case EMBEDDER_CHANGED -> new IngestException(409, "embedder-mismatch", notStored + refused.getMessage()
                    + "; send it again to embed it with the new model", refused);
            // The chunks went to the store the tenant left (a relocation ended while this document was written).
            case STORE_MOVED -> new IngestException(409, "store-moved", notStored + refused.getMessage()
                    + "; send it again to write it to the new store", refused);
            // Two uploads of one document id at once (a retried batch, two clients), or a delete: only one write may win.
            case CONCURRENT_WRITE -> new IngestException(409, "concurrent-write", notStored + refused.getMessage() + "; of two"
                    + " writes of one document at the same time only one is kept: send it again if this content should win", refused);
            case TENANT_GONE -> new IngestException(404, "tenant-not-found", notStored + refused.getMessage(), refused);
        };
    }

    /** Each chunk's index text (title and heading path before its text), made within the document's deadline. */
    private static List<String> contextualize(List<Chunk> chunks, DocumentDeadline deadline) {
        HeadingContextualizer contextualizer = new HeadingContextualizer();
        List<String> indexTexts = new java.util.ArrayList<>(chunks.size());
        for (Chunk chunk : chunks) {
            deadline.check("contextualizing its chunks");
            indexTexts.add(contextualizer.indexText(chunk));
        }
        return indexTexts;
    }

    /** The documents a rebuild of the namespace re-pushes: every one the registry holds now that the actor may see, by id. */
    public List<String> rebuildable(AccessDecision access) {
        return registry.all(access.namespace()).stream().filter(d -> access.canSee(d.metadata())).map(DocumentRecord::documentId)
                .sorted().toList();
    }

    /**
     * Re-pushes one registered document from the registry's stored text as a new version (the store lost or never had
     * its chunks, or holds stale ones). A document deleted since the rebuild started, or no longer visible to the
     * actor, is skipped, never re-created.
     */
    public IngestJob.Outcome rebuild(AccessDecision access, TenantRuntime runtime, String documentId) {
        Namespace namespace = access.namespace();
        DocumentRecord document = registry.find(namespace, documentId).filter(d -> access.canSee(d.metadata())).orElse(null);
        if (document == null) {
            return new IngestJob.Outcome(documentId, "skipped", 0, 0, 404, "deleted since the rebuild started");
        }
        String text = registry.text(namespace, documentId).orElseThrow(() -> new IngestException(422, "no-source-text",
                "document '" + documentId + "': the registry holds no text to rebuild from"));
        IngestRequest request = IngestRequest.ofText(documentId, text,
                document.mediaType() != null && document.mediaType().contains("markdown") ? "text/markdown" : "text/plain",
                document.source(), document.metadata());
        return ingest(access.tenant(), runtime, namespace, request, true, null);
    }

    /**
     * The repair step of a rebuild: deletes the namespace's chunks that the actor may see and that no registered document
     * owns, and chunks of a registered document whose version is not its active one while no version of it is being
     * written (a chunk of a version the registry never assigned, say; the cleanup after an activation spares newer
     * versions, since they may be in flight). Returns how many.
     */
    public int removeOrphans(AccessDecision access, TenantRuntime runtime) {
        Namespace namespace = access.namespace();
        return writeGate.write(access.tenant().id(), () -> {
            Map<String, DocumentRecord> registered = new java.util.HashMap<>();
            registry.all(namespace).forEach(d -> registered.put(d.documentId(), d));
            List<String> orphans = IndexVerifier.chunksOf(runtime.store(), namespace)
                    .filter(c -> access.canSee(c.metadata()))
                    .filter(c -> !registered.containsKey(c.documentId()) || isStale(c, registered.get(c.documentId())))
                    .map(Chunk::id).toList();
            if (!orphans.isEmpty()) {
                runtime.store().deleteChunks(namespace, orphans);
            }
            return orphans.size();
        });
    }

    private static boolean isStale(Chunk chunk, DocumentRecord document) {
        return document.pendingVersion() == 0 && document.activeVersion() > 0
                && !(chunk.metadata().get(ReservedKeys.VERSION) instanceof Number v && v.intValue() == document.activeVersion());
    }

    /**
     * Removes a document's chunks and registry entry; false when it does not exist <em>or the actor may not see it</em>
     * (answered 404 alike, so a delete never reveals a hidden document). Refused (409 {@code migration-in-progress})
     * while a migration holds the tenant: early by this server's write gate, and by the control plane for a migration
     * any other server runs.
     */
    public boolean delete(AccessDecision access, TenantRuntime runtime, String documentId) {
        Namespace namespace = access.namespace();
        return writeGate.write(access.tenant().id(), () -> {
            if (registry.find(namespace, documentId).filter(d -> access.canSee(d.metadata())).isEmpty()) {
                return false;
            }
            IsolationGuard store = new IsolationGuard(runtime.store(), namespace, 1);
            try {
                return registry.delete(namespace, documentId, () -> store.deleteDocument(namespace, documentId));
            } catch (WriteRefusedException refused) {
                if (refused.reason() != WriteRefusedException.Reason.MIGRATION_IN_PROGRESS) {
                    throw refused;
                }
                throw new IngestException(409, "migration-in-progress", "document '" + documentId + "' was not deleted: "
                        + refused.getMessage() + "; it is unchanged", refused).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
            }
        });
    }

    private LoadedDocument load(Tenant tenant, IngestRequest request) {
        DocumentLoader found = loaders.find(request.mediaType(), request.fileName()).orElseThrow(() -> new IngestException(415,
                "unsupported-media-type", "no loader reads '" + request.mediaType() + "' (document '" + request.documentId()
                + "'); supported: " + loaders.mediaTypes()));
        DocumentLoader loader = loaderGuard.guard(tenant.id(), loaders.providerOf(found), found);
        try {
            LoadedDocument loaded = loader.load(new LoadRequest(request.content(), request.mediaType(), request.charset(), request.fileName()));
            if (loaded.sections().stream().allMatch(s -> s.text().isBlank())) {
                throw new IngestException(422, "empty-document", "document '" + request.documentId() + "' has no text");
            }
            return loaded;
        } catch (DocumentLoadException e) {
            int status = e.reason() == DocumentLoadException.Reason.TOO_LARGE ? 413 : 422;
            throw new IngestException(status, "unreadable-document", "document '" + request.documentId() + "' ("
                    + request.fileName() + ") cannot be read: " + e.getMessage(), e);
        } catch (PluginUnavailableException e) {
            throw new IngestException(503, "plugin-unavailable", "document '" + request.documentId() + "' could not be read: "
                    + e.getMessage(), e);
        }
    }

    /**
     * What a loaded document is chunked as: its loader's metadata under the caller's, its source, no reserved keys (the
     * bench uses it to know the exact texts an ingest embeds).
     */
    public static LoadedDocument withCallerMetadata(LoadedDocument loaded, Map<String, Object> callerMetadata, String source) {
        Map<String, Object> metadata = new LinkedHashMap<>(Metadata.withoutReserved(loaded.metadata()));
        metadata.putAll(Metadata.withoutReserved(callerMetadata)); // the caller's values win over front matter
        metadata.put(PassageKeys.SOURCE, source); // citations name the document's source
        List<Section> sections = loaded.sections().stream()
                .map(s -> new Section(s.text(), Metadata.withoutReserved(s.metadata()))).toList();
        return new LoadedDocument(loaded.format(), loaded.title(), sections, metadata);
    }

    /**
     * What a document costs against the tenant's {@code maxBytes} quota (and shows as its {@code bytes}): its content's
     * bytes plus, for every chunk, that chunk's metadata as JSON — metadata is copied onto every chunk.
     */
    private static long chargedBytes(IngestRequest request, List<Chunk> chunks) {
        long bytes = request.content().length;
        for (Chunk chunk : chunks) {
            bytes += DocumentMetadata.jsonBytes(chunk.metadata());
        }
        return bytes;
    }

    /**
     * The loaded document as every store can hold it: its metadata (the caller's, its source and what the loader found,
     * e.g. front matter) within the limits and of storable text, its text without NUL characters.
     */
    private void requireStorable(String documentId, LoadedDocument loaded) {
        DocumentMetadata.requireWithin(loaded.metadata(), limits, "document '" + documentId
                + "' has metadata (its own, its source and what its loader read, e.g. front matter)");
        try {
            DocumentMetadata.fromCaller(loaded.metadata());
            for (Section section : loaded.sections()) {
                DocumentMetadata.fromCaller(section.metadata());
                int nul = section.text().indexOf('\0');
                if (nul >= 0) {
                    throw new IllegalArgumentException("its text contains a NUL character (at index " + nul + ")");
                }
            }
        } catch (IllegalArgumentException e) {
            throw new IngestException(422, "unreadable-document", "document '" + documentId + "' cannot be stored: " + e.getMessage(), e);
        }
    }

    private String requireMatchingEmbedder(Tenant tenant, TenantRuntime runtime) {
        String embedderId = runtime.embedderId();
        if (tenant.activeEmbedder() != null && !tenant.activeEmbedder().equals(embedderId) && registry.stats(tenant.id()).chunks() == 0) {
            tenants.setActiveEmbedder(tenant.id(), embedderId); // an empty corpus may change embedders freely
            return embedderId;
        }
        if (tenant.activeEmbedder() != null && !tenant.activeEmbedder().equals(embedderId)) {
            throw new IngestException(409, "embedder-mismatch", "tenant '" + tenant.id() + "' holds chunks embedded by "
                    + tenant.activeEmbedder() + " but its configured embedder is " + embedderId
                    + "; vectors of different embedders are never mixed — re-embed the corpus with a migration: "
                    + ReembedMigration.route(tenant.id()));
        }
        return embedderId;
    }

    private static void requireNamespaceOf(Tenant tenant, Namespace namespace) {
        if (!tenant.id().equals(namespace.tenant())) {
            throw new IllegalStateException("namespace " + namespace + " is not tenant " + tenant.id() + "'s");
        }
    }

    private void discardVersion(IsolationGuard store, Namespace namespace, String documentId, int version, RuntimeException cause) {
        try {
            store.deleteWhere(namespace, MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, documentId),
                    MetadataFilter.eq(ReservedKeys.VERSION, version)));
        } catch (RuntimeException cleanup) {
            cause.addSuppressed(cleanup); // orphans of a failed version stay invisible (not active) until verify/rebuild
        }
        try {
            registry.failVersion(namespace, documentId, version, String.valueOf(cause.getMessage()));
        } catch (RuntimeException registryFailure) {
            cause.addSuppressed(registryFailure);
        }
        if (cause instanceof WriteRefusedException) {
            // A refusal the caller is told of (409), not a failure of this server: no stack trace in the log.
            LOG.info(() -> "'" + documentId + "' v" + version + " in " + namespace + " was not activated: " + cause.getMessage());
        } else {
            LOG.log(Level.WARNING, "ingest of '" + documentId + "' v" + version + " in " + namespace + " failed; previous version kept", cause);
        }
    }

    private static String fullText(LoadedDocument document) {
        return document.sections().stream().map(Section::text).collect(Collectors.joining("\n\n"));
    }
}
