package io.corpora.runtime;

import java.util.Objects;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A tenant's optional plugin — its reranker, its generator — created by the first call that needs it rather than with
 * the tenant's runtime. One that cannot be started then fails only the calls that need it (a reranked retrieval answers
 * in the base order, degraded and saying why; an ask is 503), not the tenant's ingest and retrieval. Until it is
 * created, each such call tries again, as often as {@link TenantRuntimes#CREATION_RETRY_PAUSE} lets it.
 */
final class CreatedOnFirstCall<T> implements Supplier<T> {

    private static final Logger LOG = Logger.getLogger(CreatedOnFirstCall.class.getName());

    private final Supplier<T> create;
    private volatile T created;
    /** The cause last logged: within the retry pause a creation rethrows the same one, which is not news. */
    private volatile Throwable logged;

    /** @param create the creation, throwing {@link PluginCreationException}; it shares instances, so a race creates one */
    CreatedOnFirstCall(Supplier<T> create) {
        this.create = Objects.requireNonNull(create, "create");
    }

    @Override
    public T get() {
        T instance = created;
        if (instance == null) {
            try {
                instance = create.get();
            } catch (PluginCreationException e) {
                if (e.getCause() != logged) {
                    logged = e.getCause();
                    LOG.log(Level.WARNING, e.getMessage() + "; the calls that need it fail until it can be (tried again after "
                            + TenantRuntimes.CREATION_RETRY_PAUSE.toSeconds() + " s at the earliest)", e.getCause());
                }
                throw e;
            }
            created = instance;
        }
        return instance;
    }
}
