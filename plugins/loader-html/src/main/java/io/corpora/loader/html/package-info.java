/** HTML through jsoup: the page's main content as Markdown for the heading-aware chunker, under a deadline. */
package io.corpora.loader.html;
