/**
 * CDI wiring of the core's data plane: tenant runtimes, ingestion and retrieval with the container's executor and
 * configuration, job runners, re-embed migrations, store guards and purges.
 */
package io.corpora.server.dataplane;
