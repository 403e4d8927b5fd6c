/**
 * {@code corpora bench}: one command, one run, the deployment shape of issue 19 (many tenants with Zipf-distributed
 * sizes) on the real stores, measured side by side with the engine each store wraps and with LangChain4j's in-memory
 * store; a table on stdout, CSV and PNG plots under {@code bench-results/<timestamp>/}. {@code corpora bench density}
 * ({@link io.corpora.cli.bench.DensityBench}) measures open files, threads, RSS, live heap and cold-tenant first-query
 * latency against the number of provisioned tenants of a running server.
 */
package io.corpora.cli.bench;
