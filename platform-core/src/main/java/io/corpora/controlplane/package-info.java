/**
 * The control plane's interfaces and records: tenants and their definitions, the document registry, ingest jobs, the
 * audit log and ingest policies. Implementations are adapters (JPA in the server).
 */
package io.corpora.controlplane;
