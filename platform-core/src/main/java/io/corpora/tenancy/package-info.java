/**
 * Tenant isolation: the per-request {@link io.corpora.tenancy.AccessDecision}, the reserved keys stamped on every
 * chunk, the isolation guard that verifies every returned passage, and per-tenant rate limits.
 */
package io.corpora.tenancy;
