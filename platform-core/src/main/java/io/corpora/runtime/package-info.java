/**
 * Tenant runtimes: the plugin instances a tenant's definition names (store, embedder, reranker, loaders, filter hook),
 * built, shared, guarded and released; store locations and purges.
 */
package io.corpora.runtime;
