/** Writing chunks: contextualized index text, embeddings stamped with the embedder fingerprint, upsert by namespace. */
package io.corpora.engine.index;
