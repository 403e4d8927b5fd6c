/**
 * The platform-admin REST API: tenants, tenants-config sync, embedder migrations, plugins and the audit log; denied
 * admin calls are audited.
 */
package io.corpora.server.admin;
