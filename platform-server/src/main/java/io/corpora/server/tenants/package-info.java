/**
 * Tenant administration services: lifecycle (create, update, state, two-step delete), tenants-config sync, and the
 * update-guard and purger extension points the data plane implements.
 */
package io.corpora.server.tenants;
