/**
 * A real Corpora server for tests that drive it over HTTP from another module (the server's crash tests, the Java clients'
 * integration tests): a Liberty process of its own made from the build's runtime and WAR.
 */
package io.corpora.testkit.server;
