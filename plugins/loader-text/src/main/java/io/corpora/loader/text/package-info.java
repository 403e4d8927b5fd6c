/** Plain text and Markdown loaders: strict charset decoding; Markdown front matter becomes metadata. */
package io.corpora.loader.text;
