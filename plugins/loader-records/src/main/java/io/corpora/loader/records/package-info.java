/** Record loaders: CSV, JSON arrays and JSON Lines, one section per record. */
package io.corpora.loader.records;
