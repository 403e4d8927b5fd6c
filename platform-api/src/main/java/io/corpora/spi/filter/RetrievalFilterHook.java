package io.corpora.spi.filter;

import io.corpora.spi.MetadataFilter;

/**
 * Derives the access filter of a retrieval from the actor (e.g. an audience ACL). The server ANDs it with
 * the request's own filter, so a request can only narrow it.
 *
 * <p>Fail closed: if this throws or returns null, the request fails and nothing is searched.
 */
@FunctionalInterface
public interface RetrievalFilterHook {

    MetadataFilter filterFor(Actor actor);
}
