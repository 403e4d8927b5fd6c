package io.corpora.tenancy;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;

/**
 * The filter a retrieval runs with: the request's own filter ANDed with the access filter the tenant's hook derives
 * from the actor, so a request can only narrow what the hook allows. Fails closed.
 */
public final class AccessFilters {

    private AccessFilters() {}

    /**
     * @param hook          the tenant's hook, or null when the tenant has none (then no access filter is added)
     * @param requestFilter the caller's filter; it may not mention reserved keys
     * @throws AccessDeniedException when the hook throws or returns nothing usable — nothing must be searched then
     */
    public static MetadataFilter effectiveFilter(RetrievalFilterHook hook, Actor actor, MetadataFilter requestFilter) {
        for (String key : requestFilter.keys()) {
            if (ReservedKeys.isReserved(key)) {
                throw new IllegalArgumentException("filter key '" + key + "' is reserved for the server");
            }
        }
        if (hook == null) {
            return requestFilter;
        }
        MetadataFilter access;
        try {
            access = hook.filterFor(actor);
        } catch (RuntimeException e) {
            throw new AccessDeniedException("the retrieval filter hook failed (" + e.getClass().getSimpleName()
                    + "); the request was refused and nothing was searched", e);
        }
        if (access == null) {
            throw new AccessDeniedException("the retrieval filter hook returned no filter; the request was refused and nothing was searched", null);
        }
        return MetadataFilter.and(access, requestFilter);
    }

    /** The hook could not establish what the actor may see: the request fails, nothing is searched. */
    public static final class AccessDeniedException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AccessDeniedException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
