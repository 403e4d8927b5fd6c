/**
 * The default audience ACL filter hook: an actor sees a chunk when it shares a value with the chunk's {@code audience}
 * metadata.
 */
package io.corpora.filter.audience;
