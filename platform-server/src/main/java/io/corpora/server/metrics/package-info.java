/** MicroProfile Metrics: request, ingest and plugin-call metrics. */
package io.corpora.server.metrics;
