/**
 * The response bodies of the data-plane API as records: JSON-B serialises them (null components are left out unless
 * marked {@code @JsonbNillable}), and MicroProfile OpenAPI derives the document's schemas from them, so the wire format
 * and its description have one home. The Java clients ({@code clients/corpora-client}) mirror these and are tested against
 * the schemas.
 *
 * <p>Every component carries {@code @Schema}: the server's OpenAPI scanner reads a record's components only when
 * annotated (it looks for bean getters, and records have none), and the clients' contract test holds it to that.
 */
package io.corpora.server.api.model;
