/**
 * Token verification in the container: the caller's scope from the verified token, claim validation, the development-
 * key config source and the startup trust check.
 */
package io.corpora.server.security;
