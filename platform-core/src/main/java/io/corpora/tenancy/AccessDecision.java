package io.corpora.tenancy;

import io.corpora.controlplane.Tenant;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import java.util.Map;
import java.util.Objects;

/**
 * What one actor may see of one tenant, decided once per data-plane request: the tenant and the namespace bound from
 * the verified token (tenant claim, partition binding), and the access filter the tenant's filter hook derives for the
 * actor. Every data-plane route reads through a view built from this one object, so no route evaluates the hook on its
 * own, and none can forget to.
 *
 * <p>The visibility rule: a <b>document</b> is visible when the access filter matches its registry metadata (the
 * metadata every one of its chunks carries); a <b>chunk</b> is visible when the filter matches the chunk's own
 * metadata (a record's or section's metadata may narrow it further). What is not visible is treated as absent: not
 * listed, not counted, not returned, and 404 where it is addressed by id. A tenant without a hook restricts nothing.
 *
 * <p>The hook fails closed: if it throws or returns null, {@link #decide} throws
 * {@link AccessFilters.AccessDeniedException} and the request reads nothing.
 *
 * @param boundPartition the partition the token is bound to, or null when it may use any of its tenant's partitions
 * @param accessFilter   what the actor may see; {@link MetadataFilter#all()} when the tenant has no hook
 */
public record AccessDecision(Actor actor, Tenant tenant, Namespace namespace, String boundPartition, MetadataFilter accessFilter) {

    public AccessDecision {
        Objects.requireNonNull(actor, "actor");
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(accessFilter, "accessFilter");
        if (!tenant.id().equals(namespace.tenant()) || !tenant.id().equals(actor.tenant())) {
            throw new IllegalStateException("actor " + actor.subject() + " of " + actor.tenant() + " cannot act on " + namespace);
        }
        if (boundPartition != null && !boundPartition.equals(namespace.partitionKey())) {
            throw new IllegalStateException("a token bound to partition " + boundPartition + " cannot act on " + namespace);
        }
    }

    /**
     * Evaluates the tenant's hook for the actor: the only place a data-plane request does.
     *
     * @param hook the tenant's hook, or null when it has none
     * @throws AccessFilters.AccessDeniedException when the hook throws or returns nothing
     */
    public static AccessDecision decide(Actor actor, Tenant tenant, Namespace namespace, String boundPartition, RetrievalFilterHook hook) {
        return new AccessDecision(actor, tenant, namespace, boundPartition, AccessFilters.accessFilter(hook, actor));
    }

    /** Whether the actor sees everything of the namespace (no hook, or one that adds no constraint). */
    public boolean unrestricted() {
        return accessFilter.isMatchAll();
    }

    /** Whether the token may see every partition of the tenant (it is bound to none). */
    public boolean allPartitions() {
        return boundPartition == null;
    }

    /** Whether a document with this registry metadata, or a chunk with this metadata, is visible to the actor. */
    public boolean canSee(Map<String, ?> metadata) {
        return accessFilter.matches(metadata);
    }

    /** The filter a search runs with: the request's own filter, which may only narrow what the actor may see. */
    public MetadataFilter narrowedBy(MetadataFilter requestFilter) {
        return AccessFilters.narrow(accessFilter, requestFilter);
    }
}
