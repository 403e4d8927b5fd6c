/**
 * {@code corpora bench}: measurements against a running server, printed as a table and written as CSV. {@link
 * io.corpora.cli.bench.DensityBench} (tenant density: open files, threads, RSS, live heap and cold-tenant first-query
 * latency against the number of provisioned tenants) is reusable by wider benchmarks.
 */
package io.corpora.cli.bench;
