/**
 * The response bodies of the admin API as records, serialised by JSON-B and described by the OpenAPI document from
 * these types. A tenant itself stays its definition's map ({@code TenantDefinitionCodec}): that shape is the
 * definition format's, open to every plugin's options, not a fixed record.
 *
 * <p>Every component carries {@code @Schema}: the server's OpenAPI scanner reads a record's components only when
 * annotated (it looks for bean getters, and records have none), and the clients' contract test holds it to that.
 */
package io.corpora.server.admin.model;
