/**
 * {@code corpora plugin new}: generates a buildable plugin project of any kind from the templates under
 * {@code io/corpora/cli/plugin/template}, with its provider, service file, manifest SPI version and contract tests.
 */
package io.corpora.cli.plugin;
