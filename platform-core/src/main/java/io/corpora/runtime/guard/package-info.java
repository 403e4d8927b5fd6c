/**
 * The plugin-call guard: per tenant and plugin, retry, circuit breaker, timeout and bulkhead around every plugin call,
 * with the guarded plugin wrappers.
 */
package io.corpora.runtime.guard;
