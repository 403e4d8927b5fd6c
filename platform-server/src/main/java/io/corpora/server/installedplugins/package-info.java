/**
 * The plugins installed in this server: the plugins directory, loaded once at startup and shared by the data plane,
 * the admin API and health checks.
 */
package io.corpora.server.installedplugins;
