/**
 * The Jakarta EE / MicroProfile adapters around platform-core, run on Open Liberty: the JAX-RS application and its
 * roles.
 */
package io.corpora.server;
