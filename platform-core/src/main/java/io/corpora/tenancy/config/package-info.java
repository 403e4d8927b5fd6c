/**
 * Declarative tenant files (tenants-config): parsed, validated against tenant.schema.json and the rules a schema
 * cannot say, and synced into the tenant registry.
 */
package io.corpora.tenancy.config;
