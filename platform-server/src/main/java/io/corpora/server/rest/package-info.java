/**
 * JAX-RS plumbing shared by every route: RFC 9457 problem responses and exception mappers, request ids, Retry-After.
 */
package io.corpora.server.rest;
