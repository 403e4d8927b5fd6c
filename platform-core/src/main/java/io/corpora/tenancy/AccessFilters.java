package io.corpora.tenancy;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;

/**
 * The access filter the tenant's hook derives from the actor (fails closed), and the filter a search runs with: the
 * request's own filter ANDed with the access filter, so a request can only narrow what the hook allows. Called by
 * {@link AccessDecision} only, once per request.
 */
public final class AccessFilters {

    private AccessFilters() {}

    /**
     * @param hook the tenant's hook, or null when the tenant has none (then nothing is restricted)
     * @throws AccessDeniedException when the hook throws or returns nothing usable — nothing must be read then
     */
    public static MetadataFilter accessFilter(RetrievalFilterHook hook, Actor actor) {
        if (hook == null) {
            return MetadataFilter.all();
        }
        MetadataFilter access;
        try {
            access = hook.filterFor(actor);
        } catch (RuntimeException e) {
            throw new AccessDeniedException("the retrieval filter hook failed (" + e.getClass().getSimpleName()
                    + "); the request was refused and nothing was read", e);
        }
        if (access == null) {
            throw new AccessDeniedException("the retrieval filter hook returned no filter; the request was refused and nothing was read", null);
        }
        return access;
    }

    /** The access filter narrowed by the caller's filter, which may not mention reserved keys. */
    public static MetadataFilter narrow(MetadataFilter access, MetadataFilter requestFilter) {
        for (String key : requestFilter.keys()) {
            if (ReservedKeys.isReserved(key)) {
                throw new IllegalArgumentException("filter key '" + key + "' is reserved for the server");
            }
        }
        return MetadataFilter.and(access, requestFilter);
    }

    /** The hook could not establish what the actor may see: the request fails, nothing is read. */
    public static final class AccessDeniedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AccessDeniedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
