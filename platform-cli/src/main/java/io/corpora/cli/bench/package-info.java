/**
 * {@code corpora bench}: one command, one run, the deployment shape of issue 19 (many tenants with Zipf-distributed
 * sizes) on the real stores, measured side by side with the engine each store wraps and with LangChain4j's in-memory
 * store; a table on stdout, CSV and PNG plots under {@code bench-results/<timestamp>/}.
 */
package io.corpora.cli.bench;
