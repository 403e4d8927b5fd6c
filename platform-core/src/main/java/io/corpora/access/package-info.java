/**
 * A request's view of one tenant's data ({@link io.corpora.access.TenantView}): registry, jobs and store as the
 * request's access decision lets the actor see them.
 */
package io.corpora.access;
