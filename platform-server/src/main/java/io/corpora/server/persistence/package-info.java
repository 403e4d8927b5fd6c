/**
 * The control plane on JPA: entities and repositories implementing the core's control-plane interfaces, and the Flyway
 * migrations applied at boot.
 */
package io.corpora.server.persistence;
