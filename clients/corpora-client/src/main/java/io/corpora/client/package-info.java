/**
 * A typed Java client for Corpora's data-plane API: {@link io.corpora.client.CorporaClient} for one tenant, its
 * request and response records in {@code io.corpora.client.model}, {@link io.corpora.client.AskStream} for a streamed
 * answer, and {@link io.corpora.client.CorporaProblemException} for RFC 9457 problems.
 */
package io.corpora.client;
