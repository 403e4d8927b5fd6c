/** The admin console (static pages served by a servlet). */
package io.corpora.server.console;
