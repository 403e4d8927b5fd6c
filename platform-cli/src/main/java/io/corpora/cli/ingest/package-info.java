/** {@code corpora ingest}: uploads a folder tree to a running server, with progress, resume and a list of failures. */
package io.corpora.cli.ingest;
