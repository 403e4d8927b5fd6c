/**
 * The response bodies of the admin API as records, serialised by JSON-B and described by the OpenAPI document from
 * these types. A tenant itself stays its definition's map ({@code TenantDefinitionCodec}): that shape is the
 * definition format's, open to every plugin's options, not a fixed record.
 */
package io.corpora.server.admin.model;
