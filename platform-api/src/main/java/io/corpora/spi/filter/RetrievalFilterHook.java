package io.corpora.spi.filter;

import io.corpora.spi.MetadataFilter;

/**
 * Derives the access filter of a retrieval from the actor (e.g. an audience ACL). The server ANDs it with
 * the request's own filter, so a request can only narrow it.
 *
 * <p>Fail closed: if this throws or returns null, the request fails and nothing is searched. An actor whose claims the
 * hook cannot read (missing, of the wrong type) is a {@link io.corpora.spi.PluginException} of kind
 * {@link io.corpora.spi.FailureKind#CALLER_ERROR} or a filter matching nothing, never a filter wider than the actor's
 * grant; a hook backed by a remote directory throws kind {@link io.corpora.spi.FailureKind#TRANSIENT} when it is
 * unreachable. The same actor always gets the same filter (hooks are deterministic).
 */
@FunctionalInterface
public interface RetrievalFilterHook {

    MetadataFilter filterFor(Actor actor);
}
