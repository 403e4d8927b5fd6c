/**
 * The plugin test kit: the contract suites plugins run ({@link io.corpora.testkit.VectorStoreContract}), an in-memory
 * {@link io.corpora.testkit.ReferenceVectorStore}, and test utilities (provider lookup as the server does it, linear-
 * time checks, a local HTTPS server).
 */
package io.corpora.testkit;
