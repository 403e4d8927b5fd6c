/**
 * The {@code corpora} command line: one {@link io.corpora.cli.Command} per tool, options parsing and the development
 * token command.
 */
package io.corpora.cli;
