/**
 * Token claims and trust without a container: reading Corpora's claims (tenant, partition, roles, ACL groups),
 * deciding which keys verify tokens, and minting development tokens.
 */
package io.corpora.security;
