/** Limits and deadlines shared by the loader plugins (bundled inside each): byte sizes, file names, load failures. */
package io.corpora.loader.common;
