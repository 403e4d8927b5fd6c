package io.corpora.runtime.guard;

/** Told about every guarded call once it has an outcome (for metrics); must be cheap and must not throw. */
@FunctionalInterface
public interface PluginCallObserver {

    /**
     * {@code outcome} is "success", "caller_error" (the plugin refused the caller's input: not its failure) or a
     * {@link PluginUnavailableException.Reason} name in lower case; retries are included in {@code nanos}.
     */
    void completed(GuardKey key, String operation, String outcome, long nanos);

    PluginCallObserver NONE = (key, operation, outcome, nanos) -> {};
}
