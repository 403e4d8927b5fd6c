/**
 * The request and response bodies of Corpora's data-plane API as records. Each response record has the name and the
 * properties of a schema of the server's OpenAPI document ({@code GET /openapi}); {@code OpenApiContractIT} fails when
 * they drift apart.
 */
package io.corpora.client.model;
