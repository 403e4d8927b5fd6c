/**
 * Retrieval filter hooks: the tenant's access rule, turning an {@link io.corpora.spi.filter.Actor} into the metadata
 * filter every retrieval and listing applies.
 */
package io.corpora.spi.filter;
