/**
 * The Model Context Protocol server at {@code /mcp}: JSON-RPC 2.0 over the Streamable HTTP transport (each POST answered
 * with one JSON response), implemented over JAX-RS. Tools {@code search}, {@code ask} (when the tenant has a
 * generator), {@code list_documents} and {@code get_document}, and the documents as resources, all through the
 * request's {@code TenantView}: the same bearer JWT, tenant, partition binding and access decision as the REST routes.
 */
package io.corpora.server.mcp;
